/**
 * Signals a whole process group (a check's shell and everything it spawned that did
 * not leave the group). The shell is spawned detached, so its pid is the group id.
 * Returns false when the group no longer exists.
 */
export function signalProcessGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    // ESRCH: the group is gone. EPERM: not ours any more (pid reused); leave it alone.
    return false;
  }
}
