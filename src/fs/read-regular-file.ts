/**
 * Reading a file ralf does not control (config, state, lock, ledger, plan, SUMMARY) without
 * hanging or exhausting memory: opened non-blocking (a FIFO with no writer would block an
 * ordinary open or read forever), then checked with fstat on the open descriptor (no race
 * with a rename), and read only up to a size limit (a link to /dev/zero never ends).
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { RalfError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';

export interface ReadLimits {
  /** Larger files are refused (exit 2). */
  maxBytes: number;
  /** What the file is, for messages: "config file", "loop state". */
  what: string;
  /** RalfError kind (default `file_invalid`). */
  kind?: string;
}

function refuse(path: string, limits: ReadLimits, message: string, hint: string): RalfError {
  return new RalfError(limits.kind ?? 'file_invalid', `${path}: ${message}; the ${limits.what} was not read`, {
    exitCode: ExitCode.badInput,
    problems: [{ file: path, message, hint }],
  });
}

/** The file's bytes, or null when it does not exist. Throws RalfError (exit 2) for anything but a regular file within the limit. */
export function readRegularFile(path: string, limits: ReadLimits): Buffer | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    // A socket cannot be opened; a FIFO opened for reading never fails with O_NONBLOCK.
    if (code === 'ENXIO' || code === 'EOPNOTSUPP') throw refuse(path, limits, 'is not a regular file (a socket or device)', `Replace it with the ${limits.what} itself.`);
    if (code === 'ELOOP') throw refuse(path, limits, 'is a symbolic link loop', `Point the link at the real ${limits.what}, or replace it with the file.`);
    throw err;
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw refuse(path, limits, 'is a directory', `Remove or rename the directory; the ${limits.what} must be a file.`);
    if (!st.isFile()) throw refuse(path, limits, `is not a regular file (${st.isFIFO() ? 'a FIFO' : st.isCharacterDevice() || st.isBlockDevice() ? 'a device' : 'a special file'})`, `Replace it with the ${limits.what} itself.`);
    if (st.size > limits.maxBytes) throw tooLarge(path, limits, st.size);
    // Read to the end, never past the limit: the file may grow while it is read.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(Math.max(st.size - total, 0) + 65536, limits.maxBytes + 1 - total));
      const n = buf.length === 0 ? 0 : readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      chunks.push(buf.subarray(0, n));
      total += n;
      if (total > limits.maxBytes) throw tooLarge(path, limits, total);
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

function tooLarge(path: string, limits: ReadLimits, size: number): RalfError {
  return new RalfError(limits.kind ?? 'file_invalid', `${path} is too large (${size} bytes or more; a ${limits.what} is at most ${limits.maxBytes} bytes); it was not read`, {
    exitCode: ExitCode.badInput,
    problems: [{ file: path, message: `${size} bytes or more`, expected: `at most ${limits.maxBytes} bytes`, received: `${size} bytes`, hint: `Check that this is the ${limits.what} (not a log or a link to a device), and make it smaller.` }],
  });
}

export const MiB = 1024 * 1024;

/**
 * At most `bytes` from the start or the end of a regular file (a peek at a state file's head,
 * a transcript's tail); null when it is missing, unreadable or anything but a regular file.
 * Opened non-blocking and checked on the descriptor, like readRegularFile.
 */
export function readRegularFileSlice(path: string, bytes: number, from: 'start' | 'end'): Buffer | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return null;
    const length = Math.min(st.size, bytes);
    const start = from === 'start' ? 0 : st.size - length;
    const buf = Buffer.alloc(length);
    let off = 0;
    while (off < length) {
      const n = readSync(fd, buf, off, length - off, start + off);
      if (n === 0) break;
      off += n;
    }
    return buf.subarray(0, off);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
