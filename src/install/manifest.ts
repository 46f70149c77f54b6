/** Reading and writing `<root>/ralf-lite/manifest.json`. */
import { readTextIfExists } from '../fs/read-if-exists.js';
import { RalfError } from '../errors.js';
import type { Manifest } from './types.js';

export function serializeManifest(m: Manifest): string {
  return `${JSON.stringify(m, null, 2)}\n`;
}

/** The manifest at `path`, or null when there is none. A damaged one is an error: guessing could delete a user's file. */
export function readManifest(path: string): Manifest | null {
  const text = readTextIfExists(path);
  if (text === null) return null;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw damaged(path, `invalid JSON: ${(err as Error).message}`);
  }
  const m = data as Partial<Manifest> | null;
  if (!m || typeof m !== 'object' || m.tool !== 'ralf-lite' || m.schema_version !== 1 || typeof m.files !== 'object' || m.files === null) {
    throw damaged(path, 'not a ralf-lite manifest (schema_version 1)');
  }
  return {
    ...(m as Manifest),
    created_dirs: Array.isArray(m.created_dirs) ? m.created_dirs : [],
    created_parents: Array.isArray(m.created_parents) ? m.created_parents : [],
    backups: Array.isArray(m.backups) ? m.backups : [],
  };
}

function damaged(path: string, message: string): RalfError {
  return new RalfError('manifest_invalid', `the ralf-lite install manifest is damaged: ${path}`, {
    problems: [
      {
        file: path,
        message,
        hint: 'ralf will not guess which files it installed. Restore the file, or delete it (and the files ralf installed) by hand.',
      },
    ],
  });
}
