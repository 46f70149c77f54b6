/**
 * Checks outlive a verify that was killed with -9: nothing is left to kill their process
 * groups. So each verify notes the groups it starts in a ledger file, `.checks-<pid>` in the
 * state directory, and deletes it when it ends; the next verify finds the ledgers of dead
 * verifies and kills what is left of their checks (a hung test run, a server holding a port)
 * before running its own.
 *
 * Ledger lines: `ralf <pid> <start>` first, then `group <pgid> <start>` per check, where
 * <start> is the process start time from /proc (Linux) or `-`. A pid or process group id can
 * be reused by an unrelated process: a start time that differs means "not ours", and where
 * start times are unknown only ledgers younger than an hour are acted on.
 */
import { readRegularFile } from '../fs/read-regular-file.js';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive, processStartTime } from '../fs/process-alive.js';
import { scheduleGroupKill, signalProcessGroup } from './process-group.js';

const LEDGER = /^\.checks-(\d+)$/;
const TRUST_WITHOUT_START_TIME_MS = 60 * 60 * 1000;
const KILL_GRACE_MS = 2000;

export interface CheckLedger {
  /** Notes a check's process group (its shell's pid). */
  add(pgid: number): void;
  /** The verify is over (its checks ended or were killed): the ledger goes. */
  close(): void;
}

/** Opens this process's ledger in `dir`; best effort: a ledger that cannot be written changes nothing else. */
export function openCheckLedger(dir: string): CheckLedger {
  const file = join(dir, `.checks-${process.pid}`);
  let fd: number | null = null;
  const write = (line: string) => {
    try {
      if (fd === null) {
        mkdirSync(dir, { recursive: true });
        fd = openSync(file, 'a');
      }
      writeSync(fd, `${line}\n`);
    } catch {
      /* no ledger: only the clean-up after a kill -9 is lost */
    }
  };
  return {
    add(pgid) {
      if (fd === null) write(`ralf ${process.pid} ${processStartTime(process.pid) ?? '-'}`);
      write(`group ${pgid} ${processStartTime(pgid) ?? '-'}`);
    },
    close() {
      if (fd === null) return;
      try {
        closeSync(fd);
        unlinkSync(file);
      } catch {
        /* already gone */
      }
      fd = null;
    },
  };
}

/**
 * Kills the checks of verifies that died without cleaning up (SIGTERM now, SIGKILL after a
 * grace period or when this process exits) and removes their ledgers. Returns the groups signalled.
 */
export function reapOrphanChecks(dir: string, now = Date.now()): number[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const reaped: number[] = [];
  for (const name of names) {
    const m = LEDGER.exec(name);
    if (!m || Number(m[1]) === process.pid) continue;
    const file = join(dir, name);
    try {
      // A FIFO or device planted under a ledger's name is skipped, never read (it would block).
      const ledger = parseLedger(readRegularFile(file, { maxBytes: 1024 * 1024, what: 'check ledger' })?.toString('utf8') ?? '');
      const owner = ledger.ralf ?? { pid: Number(m[1]), start: null };
      if (isAlive(owner.pid, owner.start)) continue; // still running its checks
      const trustable = now - statSync(file).mtimeMs < TRUST_WITHOUT_START_TIME_MS;
      for (const g of ledger.groups) {
        if (!isOurGroup(g.pgid, g.start, trustable)) continue;
        if (signalProcessGroup(g.pgid, 'SIGTERM')) {
          scheduleGroupKill(g.pgid, KILL_GRACE_MS);
          reaped.push(g.pgid);
        }
      }
      unlinkSync(file);
    } catch {
      /* raced with another verify reaping the same ledger */
    }
  }
  return reaped;
}

interface Entry {
  pid: number;
  start: string | null;
}

export function parseLedger(text: string): { ralf: Entry | null; groups: Array<{ pgid: number; start: string | null }> } {
  let ralf: Entry | null = null;
  const groups: Array<{ pgid: number; start: string | null }> = [];
  for (const line of text.split('\n')) {
    const [kind, id, start] = line.split(' ');
    const n = Number(id);
    if (!Number.isInteger(n) || n <= 1) continue; // a torn line, or a pid no signal may go to
    const s = start && start !== '-' ? start : null;
    if (kind === 'ralf') ralf = { pid: n, start: s };
    else if (kind === 'group') groups.push({ pgid: n, start: s });
  }
  return { ralf, groups };
}

function isAlive(pid: number, start: string | null): boolean {
  if (!processAlive(pid)) return false;
  // Alive, but is it the same process? A different start time means the pid was reused.
  const now = processStartTime(pid);
  return start === null || now === null || now === start;
}

/** Whether the group `pgid` is still the check's: its leader has the recorded start time, or is gone. */
function isOurGroup(pgid: number, start: string | null, trustable: boolean): boolean {
  if (start === null) return trustable;
  const leader = processStartTime(pgid);
  // The shell (leader) exited but processes of its group remain: a reused group id would have a live leader.
  if (leader === null) return true;
  return leader === start;
}
