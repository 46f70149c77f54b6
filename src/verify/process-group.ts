import { readdirSync, readFileSync } from 'node:fs';
/**
 * Signals a whole process group (a check's shell and everything it spawned that did
 * not leave the group). The shell is spawned detached, so its pid is the group id.
 * Returns false when the group no longer exists.
 */
export function signalProcessGroup(pgid: number, signal: NodeJS.Signals): boolean {
  let signalled = false;
  try {
    process.kill(-pgid, signal);
    signalled = true;
  } catch {
    // ESRCH: the group is gone. EPERM: not ours any more (pid reused); leave it alone.
  }
  // The shell was started detached, so it also leads a new session (sid = pgid): a child that
  // moved into a process group of its own (`set -m`, setpgid) is still in that session.
  return signalSession(pgid, signal) || signalled;
}

/**
 * Signals every process whose session id is `sid` (Linux /proc; elsewhere nothing). A
 * `setsid` daemon starts a session of its own and is not touched (documented).
 */
function signalSession(sid: number, signal: NodeJS.Signals): boolean {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return false;
  }
  const created = createdSince(sid);
  let any = false;
  for (const name of names) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid || pid === sid || !created(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    // `pid (comm) state ppid pgrp session ...`; comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[3]) !== sid || Number(fields[2]) === sid) continue; // fields[2] = pgrp: the group kill got it
    try {
      process.kill(pid, signal);
      any = true;
    } catch {
      /* gone */
    }
  }
  return any;
}

/**
 * Which pids can belong to processes started after `first` (the check's shell): the kernel
 * hands out pids in increasing order, so while the last pid it gave out (ns_last_pid) is still
 * above `first`, those are exactly the pids in between, and the session's members are found
 * without reading the stat of every process on the machine (a few hundred on a desktop, per
 * check). After a wrap-around (the last pid is below `first`) every pid is a candidate; only a
 * check that starts more processes than pid_max in one run could hide a member from this.
 */
function createdSince(first: number): (pid: number) => boolean {
  let last: number;
  try {
    last = Number(readFileSync('/proc/sys/kernel/ns_last_pid', 'utf8'));
  } catch {
    return () => true;
  }
  return Number.isInteger(last) && last >= first ? (pid) => pid > first && pid <= last : () => true;
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
