import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * The ralf-lite package directory (holding commands/, workflows/, schemas/), found by
 * walking up from this code's file: works from src/ (tests), dist/ralf.js and dist/cmd/*.js.
 */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'ralf-lite') return (cached = dir);
      } catch {
        /* keep walking */
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the ralf-lite package directory above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}
