import { openSync, writeSync, closeSync, unlinkSync, renameSync, statSync } from 'node:fs';
import { readRegularFile } from './read-regular-file.js';
import { RalfError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { processAlive } from './process-alive.js';

export interface LockOptions {
  /** How long to wait for another holder before failing with `busy` (ms). */
  waitMs?: number;
  /** A lock older than this whose owner cannot be checked is treated as stale (ms). */
  staleMs?: number;
}

export interface Lock {
  release(): void;
}

const sleepBuffer = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(sleepBuffer, 0, 0, ms);
}

/**
 * An exclusive lock file (O_EXCL create) holding `pid timestamp`. Held only around a
 * read-modify-write of state, so waits are short; a holder that died (kill -9) is
 * detected by its pid and its lock is taken over.
 */
export function acquireLock(path: string, options: LockOptions = {}): Lock {
  const waitMs = options.waitMs ?? 30_000;
  const staleMs = options.staleMs ?? 10 * 60_000;
  const token = `${process.pid} ${Date.now()} ${Math.random().toString(36).slice(2)}`;
  const deadline = Date.now() + waitMs;
  let delay = 1;
  for (;;) {
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
    if (Date.now() >= deadline) {
      let holder = 'another process';
      try {
        holder = `process ${readLockFile(path).split(' ')[0]}`;
      } catch {
        /* released meanwhile */
      }
      throw new RalfError('busy', `${path} is locked by ${holder}; waited ${Math.round(waitMs / 1000)} s`, {
        exitCode: ExitCode.busy,
        problems: [{ file: path, message: `locked by ${holder}`, hint: 'Another ralf call is updating this plan. Retry shortly; if no ralf process is running, delete the lock file.' }],
      });
    }
    sleepSync(delay);
    delay = Math.min(delay * 2, 50);
  }
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

function breakIfStale(path: string, staleMs: number): void {
  let content: string;
  let mtime: number;
  try {
    content = readLockFile(path);
    mtime = statSync(path).mtimeMs;
  } catch (err) {
    if (err instanceof RalfError) throw err;
    return;
  }
  const pid = Number(content.split(' ')[0]);
  const dead = content !== '' && !processAlive(pid);
  const old = Date.now() - mtime > staleMs;
  // An empty file is a holder that died between create and write, once it is a moment old.
  const torn = content === '' && Date.now() - mtime > 1000;
  if (!dead && !old && !torn) return;
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
}
