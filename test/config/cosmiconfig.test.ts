/**
 * Config is read through cosmiconfig's public API, and nothing in the directory ralf runs
 * from changes how: cosmiconfig's "meta config" (a `cosmiconfig` key in package.json,
 * `.config/config.{json,js}`) is never consulted, never run. `$import` reaches JSON only.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, runCli, tempDir } from '../helpers/cli.js';

function project(ralfLite: Record<string, unknown>): string {
  const root = tempDir();
  mkdirSync(join(root, '.git'));
  mkdirSync(join(root, '.planning'));
  writeFileSync(join(root, '.planning', 'config.json'), JSON.stringify({ mode: 'yolo', ralf_lite: ralfLite }));
  return root;
}

describe('cosmiconfig, public API', () => {
  it('a meta config in the current directory neither changes the config nor runs', async () => {
    const root = project({ max_iterations: 7 });
    const marker = join(root, 'meta-config-ran');
    // What a meta config can say: read a sub-key, cache, other search places, and run code.
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'app', cosmiconfig: { applyPackagePropertyPathToConfiguration: true, packageProp: 'ralf_lite', cache: true, searchPlaces: ['x.json'] } }));
    mkdirSync(join(root, '.config'));
    writeFileSync(join(root, '.config', 'config.js'), `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran'); module.exports = { cosmiconfig: { packageProp: 'mode' } };`);
    const env = cleanEnv({ HOME: tempDir('ralf-home-') });
    for (const cwd of [root, join(root, '.planning')]) {
      const r = await runCli(['config', '--json', '--cwd', root], { cwd, env });
      expect(r.exitCode, String(r.stderr)).toBe(0);
      const out = JSON.parse(String(r.stdout));
      expect(out.config.max_iterations).toBe(7);
      expect(out.sources.max_iterations).toBe(join(root, '.planning', 'config.json'));
    }
    expect(existsSync(marker)).toBe(false);
    // A malformed package.json in the current directory is none of ralf's business either.
    writeFileSync(join(root, 'package.json'), '{ not json');
    const r = await runCli(['config', '--json', '--cwd', root], { cwd: root, env });
    expect(r.exitCode, String(r.stderr)).toBe(0);
  });

  it('$import merges another JSON file and refuses anything else, naming the file', async () => {
    const root = project({ max_iterations: 4 });
    writeFileSync(join(root, '.planning', 'base.json'), JSON.stringify({ ralf_lite: { no_progress_repeats: 5, max_iterations: 9 } }));
    writeFileSync(join(root, '.planning', 'config.json'), JSON.stringify({ $import: './base.json', ralf_lite: { max_iterations: 4 } }));
    const env = cleanEnv({ HOME: tempDir('ralf-home-') });
    const ok = await runCli(['config', '--json', '--cwd', root], { env });
    expect(ok.exitCode, String(ok.stderr)).toBe(0);
    expect(JSON.parse(String(ok.stdout)).config).toMatchObject({ max_iterations: 4, no_progress_repeats: 5 });

    const marker = join(root, 'imported-js-ran');
    writeFileSync(join(root, '.planning', 'evil.js'), `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran'); module.exports = {};`);
    writeFileSync(join(root, '.planning', 'config.json'), JSON.stringify({ $import: './evil.js', ralf_lite: {} }));
    const bad = await runCli(['config', '--json', '--cwd', root], { env });
    expect(bad.exitCode).toBe(2);
    expect(JSON.parse(String(bad.stdout)).error.message).toContain('evil.js');
    expect(JSON.parse(String(bad.stdout)).error.message).toContain('JSON config files only');
    expect(existsSync(marker)).toBe(false);
  });
});
