/** Stable process exit codes. Documented in README.md; only src/cli.ts calls process.exit. */
export const ExitCode = {
  /** Success, or a verification that passed. */
  ok: 0,
  /** A file-system failure (disk full, permission; the path is named) or an internal error (a bug). */
  internal: 1,
  /** Bad input: usage, config, plan or summary errors, or a refused (checkpoint/skipped) task. */
  badInput: 2,
  /** Verification failed and the loop allows another iteration: repair and verify again. */
  retry: 10,
  /** Every check passes; confirm the manual done criteria, then verify again with --done-confirmed. */
  confirm: 11,
  /** The loop stopped without success: show the handoff to the human. */
  stop: 20,
  /** Another ralf process held the plan's lock for longer than the wait allows. */
  busy: 75,
  /** Interrupted by SIGINT/SIGTERM or the STOP flag file; state was saved. */
  interrupted: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];
