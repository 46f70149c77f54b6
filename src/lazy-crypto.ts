import { createRequire } from 'node:module';
import type { Hash } from 'node:crypto';

/**
 * node:crypto, loaded on first use. Loading it costs ~4 ms (13 internal modules), and the
 * commands that run between agent iterations hash only when something changed.
 */
let crypto: typeof import('node:crypto') | undefined;

export function createHash(algorithm: 'sha1' | 'sha256'): Hash {
  crypto ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  return crypto.createHash(algorithm);
}
