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

/** Groups sent SIGTERM whose SIGKILL is still pending; killed for sure when ralf exits. */
const pendingKills = new Set<number>();
let exitHookInstalled = false;

/**
 * SIGKILLs a group after `graceMs` unless it is gone by then. The timer is unref()'d so it
 * never keeps ralf alive, and a process-exit hook sends any SIGKILL still pending, so a
 * child that ignores SIGTERM cannot outlive the verify that started it.
 */
export function scheduleGroupKill(pgid: number, graceMs: number): void {
  pendingKills.add(pgid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const g of pendingKills) signalProcessGroup(g, 'SIGKILL');
    });
  }
  const timer = setTimeout(() => {
    pendingKills.delete(pgid);
    signalProcessGroup(pgid, 'SIGKILL');
  }, graceMs);
  timer.unref();
}
