/** What a recorded check result means for the loop (pure). */

/** A check that ran and failed. A skipped check (stop_on_first_failure) is neither passed nor failed. */
export const failed = (c: { passed: boolean; skipped?: boolean | undefined }): boolean => !c.passed && !c.skipped;
