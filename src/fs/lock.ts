import { openSync, writeSync, closeSync, readFileSync, unlinkSync, renameSync, statSync } from 'node:fs';
import { readRegularFile } from './read-regular-file.js';
import { RalfError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { processAlive, processStartTime } from './process-alive.js';

export interface LockOptions {
  /** How long to wait for another holder before failing with `busy` (ms). */
  waitMs?: number;
  /** A lock older than this whose owner cannot be identified is treated as stale (ms). */
  staleMs?: number;
}

export interface Lock {
  release(): void;
}

/**
 * A lock is held only around a read-modify-write of state (milliseconds): one older than this
 * whose holder cannot be proven alive (no /proc to compare start times) was left by a crash.
 */
export const LOCK_STALE_SECONDS = 60;

const sleepBuffer = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(sleepBuffer, 0, 0, ms);
}

/** `pid s<start-time> timestamp random`: the start time tells a live holder from a reused pid. */
function newToken(): string {
  return `${process.pid} s${processStartTime(process.pid) ?? '-'} ${Date.now()} ${Math.random().toString(36).slice(2)}`;
}

/** The holder's pid and start time from a lock's content (older tokens `pid timestamp ...` have no start time). */
function holderOf(content: string): { pid: number; start: string | null } {
  const [pidText, second] = content.split(' ');
  const start = second !== undefined && /^s\d+$/.test(second) ? second.slice(1) : null;
  return { pid: Number(pidText), start };
}

/** The holder named by a lock's content is gone: dead, or its pid now belongs to another process. */
export function holderGone(content: string): boolean {
  const { pid, start } = holderOf(content);
  if (!processAlive(pid)) return true;
  if (start === null) return false;
  const now = processStartTime(pid);
  return now !== null && now !== start;
}

/**
 * An exclusive lock file (O_EXCL create) holding a token `pid start-time timestamp random`.
 * Held only around a read-modify-write of state, so waits are short; a holder that died
 * (kill -9) or whose pid was reused by another process is detected and its lock taken over.
 */
export function acquireLock(path: string, options: LockOptions = {}): Lock {
  const waitMs = options.waitMs ?? 30_000;
  const staleMs = options.staleMs ?? LOCK_STALE_SECONDS * 1000;
  const token = newToken();
  const deadline = Date.now() + waitMs;
  let delay = 1;
  for (;;) {
    const lock = tryAcquire(path, token, staleMs);
    if (lock) return lock;
    if (Date.now() >= deadline) throw busy(path, waitMs);
    sleepSync(delay);
    delay = Math.min(delay * 2, 50);
  }
}

/**
 * Waits until the lock is free (or stale) without taking it: the probe a verify makes BEFORE
 * running its checks, so a plan held by another process is reported at once instead of after
 * minutes of checks. Asynchronous, so a signal (SIGINT/SIGTERM through `signal`) ends the wait:
 * it resolves `'aborted'` and the caller exits 130.
 */
export async function waitForLockFree(path: string, options: LockOptions & { signal?: AbortSignal | undefined } = {}): Promise<'free' | 'aborted'> {
  const waitMs = options.waitMs ?? 30_000;
  const staleMs = options.staleMs ?? LOCK_STALE_SECONDS * 1000;
  const deadline = Date.now() + waitMs;
  let delay = 5;
  for (;;) {
    if (options.signal?.aborted) return 'aborted';
    let content: string | null;
    try {
      content = readLockFile(path);
    } catch (err) {
      if (err instanceof RalfError) throw err; // a FIFO or device planted as the lock: exit 2
      return 'free';
    }
    if (breakIfStale(path, staleMs, content)) return 'free';
    if (Date.now() >= deadline) throw busy(path, waitMs);
    await new Promise<void>((resolve) => {
      const t = setTimeout(done, delay);
      function done() {
        clearTimeout(t);
        options.signal?.removeEventListener('abort', done);
        resolve();
      }
      options.signal?.addEventListener('abort', done, { once: true });
    });
    delay = Math.min(delay * 2, 100);
  }
}

function tryAcquire(path: string, token: string, staleMs: number): Lock | null {
  try {
    const fd = openSync(path, 'wx', 0o644);
    try {
      writeSync(fd, token);
    } catch (err) {
      // The lock is ours but holds no owner (a full disk): don't leave it to block others.
      closeSync(fd);
      try {
        unlinkSync(path);
      } catch {
        /* a stale-lock breaker removed it already */
      }
      throw withPath(err, path);
    }
    closeSync(fd);
    // A stale-lock breaker may have raced us between its read and its unlink: confirm.
    if (readLockFile(path) === token) {
      return {
        release() {
          try {
            if (readLockFile(path) === token) unlinkSync(path);
          } catch {
            /* already gone */
          }
        },
      };
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST' && code !== 'ENOENT') throw err;
    breakIfStale(path, staleMs);
  }
  return null;
}

function busy(path: string, waitMs: number): RalfError {
  let holder = 'another process';
  try {
    holder = `process ${readLockFile(path).split(' ')[0]}`;
  } catch {
    /* released meanwhile */
  }
  return new RalfError('busy', `${path} is locked by ${holder}; waited ${Math.round(waitMs / 1000)} s`, {
    exitCode: ExitCode.busy,
    problems: [{ file: path, message: `locked by ${holder}`, hint: 'Another ralf call is updating this plan. Retry shortly; if no ralf process is running, delete the lock file.' }],
  });
}

/** System errors of writes (ENOSPC...) carry no path; name the file for the message. */
function withPath(err: unknown, path: string): unknown {
  if (err && typeof err === 'object' && (err as NodeJS.ErrnoException).path === undefined) (err as NodeJS.ErrnoException).path = path;
  return err;
}

/** A lock file's text; a FIFO or device planted there is refused (exit 2) instead of blocking the read forever. */
function readLockFile(path: string): string {
  const buf = readRegularFile(path, { maxBytes: 4096, what: 'lock file', kind: 'lock_invalid' });
  if (buf === null) throw Object.assign(new Error(`${path}: no such file`), { code: 'ENOENT' });
  return buf.toString('utf8');
}

/** Removes the lock when its holder is gone (or it is too old to be a live one); true when it did or the lock vanished. */
function breakIfStale(path: string, staleMs: number, known?: string): boolean {
  let content: string;
  let mtime: number;
  try {
    content = known ?? readLockFile(path);
    mtime = statSync(path).mtimeMs;
  } catch (err) {
    if (err instanceof RalfError) throw err;
    return true;
  }
  const gone = content !== '' && holderGone(content);
  // Only a holder we cannot identify (no start time to compare) ages out.
  const old = Date.now() - mtime > staleMs && !provablyAlive(content);
  // An empty file is a holder that died between create and write, once it is a moment old.
  const torn = content === '' && Date.now() - mtime > 1000;
  if (!gone && !old && !torn) return false;
  // Move it aside first and check it is still the stale lock we judged, so two breakers
  // cannot both remove a fresh lock.
  const aside = `${path}.stale.${process.pid}`;
  try {
    renameSync(path, aside);
    const moved = readLockFile(aside);
    if (moved !== content) renameSync(aside, path);
    else unlinkSync(aside);
  } catch {
    /* someone else handled it */
  }
  return true;
}

/** The holder is alive and its recorded start time matches: never stale, however long it holds. */
function provablyAlive(content: string): boolean {
  const { pid, start } = holderOf(content);
  return start !== null && processAlive(pid) && processStartTime(pid) === start;
}
