import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers/cli.js';

describe('package-lock.json', () => {
  const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8'));

  it('has no dangling optional-dependency edges, so `npm ci` accepts it (run `npm run fix-lock` after `npm install`)', () => {
    const dangling: string[] = [];
    for (const [path, entry] of Object.entries<{ optionalDependencies?: Record<string, string> }>(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        const nested = path === '' ? `node_modules/${name}` : `${path}/node_modules/${name}`;
        if (!lock.packages[nested] && !lock.packages[`node_modules/${name}`]) dangling.push(`${path || '(root)'} -> ${name}`);
      }
    }
    expect(dangling).toEqual([]);
  });

  it('names no registry host (resolved URLs are omitted)', () => {
    expect(JSON.stringify(lock)).not.toMatch(/"resolved":\s*"https?:/);
  });
});
