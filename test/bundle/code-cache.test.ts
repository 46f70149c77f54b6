/**
 * The V8 code cache (src/bundle/code-cache.ts) makes every call after the first skip
 * compiling its bundle. It must never run bytecode of another build, and must not grow
 * without bound. Tested on a private copy of dist/ with a private TMPDIR.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPath } from '../engine/project.js';
import { cleanEnv, tempDir } from '../helpers/cli.js';

function setup() {
  const root = tempDir('ralf-v8-');
  const dist = join(root, 'dist');
  cpSync(join(cliPath(), '..'), dist, { recursive: true });
  const tmp = join(root, 'tmp');
  mkdirSync(tmp);
  const noProject = join(root, 'empty');
  mkdirSync(join(noProject, '.git'), { recursive: true });
  const cacheDir = join(tmp, `ralf-lite-v8-${process.getuid?.() ?? 0}`);
  const status = () => spawnSync(process.execPath, [join(dist, 'ralf.js'), 'status', '--cwd', noProject], { env: cleanEnv({ TMPDIR: tmp }), encoding: 'utf8' });
  const cacheFiles = () => readdirSync(cacheDir).filter((n) => n.startsWith('status-'));
  return { dist, cacheDir, status, cacheFiles };
}

describe('V8 code cache', () => {
  it('keeps one file per bundle, headed by the exact build it was made for; the first runs refine it, then it stays', () => {
    const { dist, cacheDir, status, cacheFiles } = setup();
    expect(status().stderr).toContain('no .planning/ directory');
    const [file] = cacheFiles();
    expect(cacheFiles()).toHaveLength(1);
    const cache = join(cacheDir, file!);
    const header = () => readFileSync(cache, 'utf8').split('\n').slice(0, 3);
    expect(header()[0]).toBe('ralf-v8-cache 2');
    expect(header()[1]).toContain(join(dist, 'cmd', 'status.js'));
    expect(header()[2]).toBe('runs 1');
    expect((statSync(cacheDir).mode & 0o777).toString(8)).toBe('700');
    // Each of the first runs rewrites it with what it compiled (accepted cache + new code)...
    for (const n of [2, 3, 4]) {
      expect(status().status).toBe(2);
      expect(header()[2]).toBe(`runs ${n}`);
    }
    // ...then it is used as it is.
    const written = statSync(cache).mtimeMs;
    for (let i = 0; i < 2; i++) expect(status().status).toBe(2);
    expect(statSync(cache).mtimeMs).toBe(written);
    expect(header()[2]).toBe('runs 4');
    expect(cacheFiles()).toEqual([file]);
  });

  it('never runs the bytecode of a different build of the same size and mtime', () => {
    const { dist, status, cacheFiles } = setup();
    // What an npm upgrade can look like: same path, same length, and npm's fixed mtime (1985).
    const bundle = join(dist, 'cmd', 'status.js');
    const npmTime = Date.parse('1985-10-26T08:15:00Z') / 1000;
    utimesSync(bundle, npmTime, npmTime);
    expect(status().stderr).toContain('ralf: no .planning/ directory');
    const before = statSync(bundle);
    const text = readFileSync(bundle, 'utf8');
    expect(text).toContain('no .planning/ directory found from');
    writeFileSync(bundle, text.replace('no .planning/ directory found from', 'NO .planning/ DIRECTORY found from'));
    utimesSync(bundle, npmTime, npmTime);
    expect(statSync(bundle)).toMatchObject({ size: before.size, mtimeMs: before.mtimeMs });
    expect(status().stderr).toContain('NO .planning/ DIRECTORY found from');
    expect(cacheFiles()).toHaveLength(1);
    expect(status().stderr).toContain('NO .planning/ DIRECTORY found from');
  });

  it('prunes cache files of bundles that no longer exist, and leftovers of older formats', () => {
    const { cacheDir, status, cacheFiles } = setup();
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    const old = (Date.now() - 2 * 3600 * 1000) / 1000;
    const orphan = join(cacheDir, 'task-0badc0de.bin');
    writeFileSync(orphan, `ralf-v8-cache 2\nv20.0.0 x64 1 2 3 4 /nonexistent/dist/cmd/task.js\nruns 1\nBYTES`);
    const legacy = join(cacheDir, 'task-v20.20.2-x64-557546-1795309755954-xmLXBrZy.bin');
    writeFileSync(legacy, 'old format');
    const recentOrphan = join(cacheDir, 'plan-0badf00d.bin');
    writeFileSync(recentOrphan, `ralf-v8-cache 2\nv20.0.0 x64 1 2 3 4 /nonexistent/dist/cmd/plan.js\nruns 1\nBYTES`);
    for (const f of [orphan, legacy]) utimesSync(f, old, old);
    status(); // writes the status cache, which prunes
    const left = readdirSync(cacheDir);
    expect(left).not.toContain('task-0badc0de.bin');
    expect(left).not.toContain('task-v20.20.2-x64-557546-1795309755954-xmLXBrZy.bin');
    // Written within the hour: another process may be about to use it.
    expect(left).toContain('plan-0badf00d.bin');
    expect(cacheFiles()).toHaveLength(1);
  });
});
