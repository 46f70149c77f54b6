import { MiB, readRegularFile } from './read-regular-file.js';

/**
 * A file's text, or null when it does not exist; a FIFO, device, directory or a file over
 * `maxBytes` (default 64 MiB) is refused with exit 2 naming it; any other failure is thrown.
 */
export function readTextIfExists(path: string, limits: { maxBytes?: number; what?: string; kind?: string | undefined } = {}): string | null {
  const buf = readRegularFile(path, { maxBytes: limits.maxBytes ?? 64 * MiB, what: limits.what ?? 'file ralf keeps', ...(limits.kind ? { kind: limits.kind } : {}) });
  return buf === null ? null : buf.toString('utf8');
}
