/**
 * kill -9 of `ralf install` at many points: every installed file is absent, the file that
 * was there before, or complete; the manifest is absent or parses; the next install ends
 * exactly like an uninterrupted one, and uninstall then puts the config dir back
 * byte-for-byte (including the user's own /execute-plan that the install moved aside).
 */
import { mkdirSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, ralf, testEnv, scratch, sleep, spreadDelays, start, treeListing } from './helpers.js';

afterAll(cleanupTempDirs);

/** GSD's files in a Claude Code config dir, plus the user's own /execute-plan (ralf must move it aside and put it back). */
const BEFORE: Record<string, string> = {
  'commands/gsd/execute-phase.md': '---\nname: gsd:execute-phase\n---\nGSD\n',
  'get-shit-done/config.json': '{\n  "ralf_lite": { "max_iterations": 4 }\n}\n',
  'package.json': '{"type":"commonjs"}',
  'commands/execute-plan.md': '---\ndescription: my own execute-plan\n---\nmine\n',
};

function seed(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  for (const [rel, content] of Object.entries(BEFORE)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
}

/** Temp files of atomic writes killed before their rename. */
const TEMP = /(^|\/)\.[^/]+\.\d+\.[0-9a-z]+\.tmp$/;
/** Backup directories are named by time: compare them by shape. */
const norm = (rel: string) => rel.replace(/ralf-lite\/backups\/[^/]+/, 'ralf-lite/backups/<time>');

/** The tree with backup times normalised; `ignoreTemps` drops temp files matching it. */
function listing(dir: string, ignoreTemps: RegExp | null = null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [rel, v] of Object.entries(treeListing(dir))) if (!ignoreTemps?.test(rel)) out[norm(rel)] = rel === 'ralf-lite/manifest.json' ? 'manifest' : v;
  return out;
}

/**
 * The manifest without its times. A killed run's backup folder that a later install
 * replaced by its own stays recorded (uninstall removes it): created_dirs is a set here.
 */
function manifestShape(dir: string): unknown {
  const m = JSON.parse(readFileSync(join(dir, 'ralf-lite/manifest.json'), 'utf8'));
  const shape = JSON.parse(JSON.stringify({ ...m, installed_at: '', updated_at: '', backups: m.backups.map((b: { at: string }) => ({ ...b, at: '' })) }).replace(/ralf-lite\/backups\/[^/"]+/g, 'ralf-lite/backups/<time>'));
  return { ...shape, created_dirs: [...new Set(shape.created_dirs)] };
}

describe('kill -9 during ralf install', () => {
  it('leaves absent-or-complete files and a parsable manifest; install again + uninstall restore everything', async () => {
    const base = scratch('ralf-rel-install-');
    const home = join(base, 'home');
    const dir = join(base, 'claude');
    mkdirSync(home);
    const env = testEnv({ HOME: home });
    const install = ['install', '--claude', '--config-dir', dir, '--json'];
    const uninstall = ['uninstall', '--claude', '--config-dir', dir, '--json'];

    seed(dir);
    const before = listing(dir);
    const t0 = Date.now();
    const ref = await ralf(install, { cwd: base, env });
    const lifetime = Date.now() - t0;
    expect(ref.code).toBe(0);
    const after = listing(dir);
    const shape = manifestShape(dir);
    // The user's own command was moved to a backup (uninstall puts it back).
    expect(after['ralf-lite/backups/<time>/commands/execute-plan.md']).toBe(before['commands/execute-plan.md']);
    const u = await ralf(uninstall, { cwd: base, env });
    expect(u.code).toBe(0);
    expect(listing(dir)).toEqual(before);

    const outcomes: string[] = [];
    const check = (exit: { signal: NodeJS.Signals | null; code: number | null }) => {
      const now = listing(dir, TEMP);
      // Each path holds what was there before or what the install puts there; nothing partial.
      for (const [rel, v] of Object.entries(now)) {
        if (rel === 'ralf-lite/manifest.json') continue;
        expect([before[rel], after[rel]], rel).toContain(v);
      }
      const hasManifest = now['ralf-lite/manifest.json'] !== undefined;
      // The journal (written before any file) and the final manifest are the same for a
      // fresh install: whenever one exists it parses and says what the install is doing.
      if (hasManifest) expect(manifestShape(dir)).toEqual(shape);
      if (exit.signal === null) expect(exit.code).toBe(0);
      outcomes.push(hasManifest ? 'complete' : 'partial');
    };
    const finish = async () => {
      const again = await ralf(install, { cwd: base, env });
      expect(again.code, again.stderr).toBe(0);
      // Debris beside installed files is cleaned; a temp inside a backup folder the killed
      // run had started stays until uninstall (the folder is recorded as ralf's).
      expect(listing(dir, /^ralf-lite\/backups\/.*\.tmp$/)).toEqual(after);
      expect(manifestShape(dir)).toEqual(shape);
      const un = await ralf(uninstall, { cwd: base, env });
      expect(un.code, un.stderr).toBe(0);
      expect(listing(dir)).toEqual(before);
    };

    for (const delay of spreadDelays(lifetime, 12, 11)) {
      seed(dir);
      const child = start(install, { cwd: base, env });
      await sleep(delay);
      child.kill('SIGKILL');
      check(await child.done);
      await finish();
    }
    // Kills on markers: right after the directories are made, after the first command file,
    // after the user's own command was backed up and replaced (before the runtime and manifest).
    const markers: Array<[string, RegExp]> = [
      ['.', /^ralf-lite$/],
      ['commands', /^execute-phase\.md$/],
      ['commands', /^execute-plan\.md$/],
    ];
    for (const [sub, pattern] of markers) {
      seed(dir);
      const child = start(install, { cwd: base, env });
      const w = watch(join(dir, sub), (_, name) => {
        if (name && pattern.test(name)) child.kill('SIGKILL');
      });
      const exit = await child.done;
      w.close();
      check(exit);
      await finish();
    }
    expect(outcomes).toContain('partial');
  }, 90_000);
});
