/** Reads what is at the paths a plan needs to know about (the only fs reads the planners depend on). */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sha256 } from './plan-install.js';
import type { PathState } from './types.js';

export function absPath(root: string, rel: string): string {
  return rel === '.' ? root : join(root, ...rel.split('/'));
}

/** State of each path (symlinks are followed: a linked config dir is a directory). */
export function snapshot(root: string, rels: Iterable<string>): Record<string, PathState> {
  const out: Record<string, PathState> = {};
  for (const rel of rels) {
    if (out[rel]) continue;
    const full = absPath(root, rel);
    let st;
    try {
      st = statSync(full);
    } catch {
      out[rel] = { kind: 'missing' };
      continue;
    }
    if (st.isFile()) out[rel] = { kind: 'file', sha256: sha256(readFileSync(full)) };
    else if (st.isDirectory()) out[rel] = { kind: 'dir' };
    else out[rel] = { kind: 'other' };
  }
  return out;
}
