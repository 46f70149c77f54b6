/**
 * Whether a process with this pid exists (a file's recorded writer or lock holder). EPERM
 * means it exists but belongs to someone else. A pid may have been reused by an unrelated
 * process since it was recorded: callers that act on "dead" only ever remove leftovers, so
 * that error keeps a leftover a little longer, never removes something in use.
 */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
