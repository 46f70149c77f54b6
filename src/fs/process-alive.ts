import { readFileSync } from 'node:fs';

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

/**
 * Field 22 of /proc/<pid>/stat (start time in clock ticks since boot); null without /proc or
 * such a process. With the pid it names one process for good: a reused pid has another start time.
 */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses: fields follow the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}
