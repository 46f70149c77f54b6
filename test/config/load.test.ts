import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync, readFileSync, statSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, findProjectRoot } from '../../src/config/load.js';
import { DEFAULT_CONFIG } from '../../src/config/schema.js';
import { tempDir } from '../helpers/cli.js';
import { errorOf } from '../helpers/errors.js';

function project(ralfLite?: unknown, extra: Record<string, unknown> = { mode: 'yolo', workflow: { research: true } }) {
  const root = tempDir();
  mkdirSync(join(root, '.git'));
  mkdirSync(join(root, '.planning'));
  if (ralfLite !== undefined) writeFileSync(join(root, '.planning', 'config.json'), JSON.stringify({ ...extra, ralf_lite: ralfLite }, null, 2));
  return root;
}

function globalDir(ralfLite?: unknown, extra: Record<string, unknown> = { model_profile: 'balanced' }) {
  const dir = tempDir('ralf-global-');
  mkdirSync(join(dir, 'get-shit-done'));
  if (ralfLite !== undefined) writeFileSync(join(dir, 'get-shit-done', 'config.json'), JSON.stringify({ ...extra, ralf_lite: ralfLite }));
  return dir;
}

const isolatedEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ HOME: tempDir('ralf-home-'), ...extra });

describe('layers', () => {
  it('uses exactly the seed defaults when no file sets anything', () => {
    const root = project();
    const eff = loadConfig({ cwd: root, env: isolatedEnv() });
    expect(eff.config).toEqual({
      enabled: true,
      max_iterations: 3,
      error_fingerprint_repeats: 2,
      no_progress_repeats: 2,
      apply_to: { auto_tasks: true, autonomous_plans: true, tdd_tasks: false },
    });
    expect(eff.config).toEqual(DEFAULT_CONFIG);
    expect(new Set(Object.values(eff.sources))).toEqual(new Set(['default']));
  });

  it('global overrides defaults; project overrides global; objects merge deeply and keep per-key sources', () => {
    const g = globalDir({ max_iterations: 5, apply_to: { tdd_tasks: true }, no_progress_repeats: 4 });
    const root = project({ max_iterations: 7, apply_to: { auto_tasks: false } });
    const eff = loadConfig({ cwd: root, configDir: g, env: isolatedEnv() });
    const gFile = join(g, 'get-shit-done', 'config.json');
    const pFile = join(root, '.planning', 'config.json');
    expect(eff.config.max_iterations).toBe(7);
    expect(eff.config.no_progress_repeats).toBe(4);
    expect(eff.config.apply_to).toEqual({ auto_tasks: false, autonomous_plans: true, tdd_tasks: true });
    expect(eff.sources).toMatchObject({
      max_iterations: pFile,
      no_progress_repeats: gFile,
      'apply_to.auto_tasks': pFile,
      'apply_to.tdd_tasks': gFile,
      'apply_to.autonomous_plans': 'default',
      enabled: 'default',
    });
    expect(eff.files.map((f) => [f.layer, f.path, f.exists, f.has_ralf_lite])).toEqual([
      ['user', expect.stringMatching(/[\\/]\.gsd[\\/]defaults\.json$/), false, false],
      ['global', gFile, true, true],
      ['project', pFile, true, true],
    ]);
  });

  it("GSD's user defaults (~/.gsd/defaults.json, key ralf_lite) sit below the host's global file and the project", () => {
    const home = tempDir('ralf-home-');
    mkdirSync(join(home, '.gsd'));
    // What GSD's installers write for OpenCode, plus the ralf_lite key.
    const userFile = join(home, '.gsd', 'defaults.json');
    writeFileSync(userFile, JSON.stringify({ resolve_model_ids: 'omit', runtime: 'opencode', ralf_lite: { max_iterations: 6, no_progress_repeats: 4, error_fingerprint_repeats: 3 } }));
    const g = globalDir({ no_progress_repeats: 5 });
    const root = project({ error_fingerprint_repeats: 2 });
    const eff = loadConfig({ cwd: root, configDir: g, env: { HOME: home } });
    expect(eff.config).toMatchObject({ max_iterations: 6, no_progress_repeats: 5, error_fingerprint_repeats: 2 });
    expect(eff.sources).toMatchObject({ max_iterations: userFile, no_progress_repeats: join(g, 'get-shit-done', 'config.json'), error_fingerprint_repeats: join(root, '.planning', 'config.json'), enabled: 'default' });
    expect(eff.files[0]).toEqual({ layer: 'user', path: userFile, exists: true, has_ralf_lite: true });
    // GSD_HOME moves it, as it does for GSD itself.
    const gsdHome = tempDir('ralf-gsd-home-');
    mkdirSync(join(gsdHome, '.gsd'));
    writeFileSync(join(gsdHome, '.gsd', 'defaults.json'), JSON.stringify({ ralf_lite: { max_iterations: 9 } }));
    const moved = loadConfig({ cwd: root, configDir: g, env: { HOME: home, GSD_HOME: gsdHome } });
    expect(moved.config.max_iterations).toBe(9);
    expect(moved.sources.max_iterations).toBe(join(gsdHome, '.gsd', 'defaults.json'));
  });

  it("an invalid ralf_lite in GSD's user defaults is an error naming that file; GSD's other keys are ignored", () => {
    const home = tempDir('ralf-home-');
    mkdirSync(join(home, '.gsd'));
    writeFileSync(join(home, '.gsd', 'defaults.json'), JSON.stringify({ model_profile: 'quality', ralf_lite: { max_iterations: 0 } }));
    const err = errorOf(() => loadConfig({ cwd: project(), env: { HOME: home } }));
    expect(err.problems?.[0]).toMatchObject({ file: join(home, '.gsd', 'defaults.json'), key: 'ralf_lite.max_iterations' });
  });

  it('global only, and project only', () => {
    const g = globalDir({ enabled: false });
    expect(loadConfig({ cwd: project(), configDir: g, env: isolatedEnv() }).config.enabled).toBe(false);
    expect(loadConfig({ cwd: project({ enabled: false }), env: isolatedEnv() }).config.enabled).toBe(false);
  });

  it('arrays replace instead of concatenating', () => {
    const g = globalDir({ run: { backoff_seconds: [1, 2, 3] } });
    const root = project({ run: { backoff_seconds: [5] } });
    expect(loadConfig({ cwd: root, configDir: g, env: isolatedEnv() }).config.run?.backoff_seconds).toEqual([5]);
  });

  it('ignores other GSD keys in both files and never writes', () => {
    const g = globalDir({ max_iterations: 4 }, { model_profile: 'quality', anything: [1, 2] });
    const root = project({ enabled: true }, { mode: 'interactive', gates: { confirm_plan: true }, parallelization: true });
    const pFile = join(root, '.planning', 'config.json');
    const before = readFileSync(pFile, 'utf8');
    const mtime = statSync(pFile).mtimeMs;
    const eff = loadConfig({ cwd: root, configDir: g, env: isolatedEnv() });
    expect(eff.config.max_iterations).toBe(4);
    expect(eff.project_config).toMatchObject({ mode: 'interactive' });
    expect(readFileSync(pFile, 'utf8')).toBe(before);
    expect(statSync(pFile).mtimeMs).toBe(mtime);
  });

  it('a file without ralf_lite contributes nothing', () => {
    const root = project();
    writeFileSync(join(root, '.planning', 'config.json'), '{"mode":"yolo"}');
    const eff = loadConfig({ cwd: root, env: isolatedEnv() });
    expect(eff.config).toEqual(DEFAULT_CONFIG);
    expect(eff.files.find((f) => f.layer === 'project')).toMatchObject({ exists: true, has_ralf_lite: false });
  });

  it('finds .planning/config.json from a subdirectory, but not above the repo root', () => {
    const root = project({ max_iterations: 9 });
    const sub = join(root, 'src', 'deep');
    mkdirSync(sub, { recursive: true });
    expect(loadConfig({ cwd: sub, env: isolatedEnv() }).config.max_iterations).toBe(9);
    expect(findProjectRoot(sub)).toBe(root);
    const nested = join(root, 'packages', 'inner');
    mkdirSync(join(nested, '.git'), { recursive: true });
    expect(findProjectRoot(nested)).toBeNull();
    expect(loadConfig({ cwd: nested, env: isolatedEnv() }).config.max_iterations).toBe(3);
  });
});

describe('host config dir precedence', () => {
  const write = (dir: string, n: number) => {
    mkdirSync(join(dir, 'get-shit-done'), { recursive: true });
    writeFileSync(join(dir, 'get-shit-done', 'config.json'), JSON.stringify({ ralf_lite: { max_iterations: n } }));
  };

  it('OpenCode: --config-dir > OPENCODE_CONFIG_DIR > dirname(OPENCODE_CONFIG) > XDG_CONFIG_HOME/opencode > ~/.config/opencode', () => {
    const home = tempDir('ralf-home-');
    const flag = tempDir();
    const envDir = tempDir();
    const cfgFileDir = tempDir();
    const xdg = tempDir();
    write(flag, 11);
    write(envDir, 12);
    write(cfgFileDir, 13);
    write(join(xdg, 'opencode'), 14);
    write(join(home, '.config', 'opencode'), 15);
    const root = project();
    const full = { HOME: home, OPENCODE_CONFIG_DIR: envDir, OPENCODE_CONFIG: join(cfgFileDir, 'opencode.json'), XDG_CONFIG_HOME: xdg };
    const n = (env: NodeJS.ProcessEnv, configDir?: string) => loadConfig({ cwd: root, env, configDir, host: 'opencode' }).config.max_iterations;
    expect(n(full, flag)).toBe(11);
    expect(n(full)).toBe(12);
    expect(n({ ...full, OPENCODE_CONFIG_DIR: undefined })).toBe(13);
    expect(n({ HOME: home, XDG_CONFIG_HOME: xdg })).toBe(14);
    expect(n({ HOME: home })).toBe(15);
  });

  it('Claude Code: --config-dir > CLAUDE_CONFIG_DIR > ~/.claude, expanding ~', () => {
    const home = tempDir('ralf-home-');
    const flag = tempDir();
    write(flag, 21);
    write(join(home, 'claude-alt'), 22);
    write(join(home, '.claude'), 23);
    const root = project();
    const n = (env: NodeJS.ProcessEnv, configDir?: string) => loadConfig({ cwd: root, env, configDir, host: 'claude' }).config.max_iterations;
    expect(n({ HOME: home, CLAUDE_CONFIG_DIR: '~/claude-alt' }, flag)).toBe(21);
    expect(n({ HOME: home, CLAUDE_CONFIG_DIR: '~/claude-alt' })).toBe(22);
    expect(n({ HOME: home })).toBe(23);
  });

  it('host: --host > RALF_HOST > detected from the agent environment > OpenCode', () => {
    const home = tempDir('ralf-home-');
    write(join(home, '.claude'), 31);
    write(join(home, '.config', 'opencode'), 32);
    const root = project();
    const load = (env: NodeJS.ProcessEnv, host?: string) => loadConfig({ cwd: root, env: { HOME: home, ...env }, host });
    expect(load({}).host).toBe('opencode');
    expect(load({}).config.max_iterations).toBe(32);
    expect(load({ CLAUDECODE: '1' })).toMatchObject({ host: 'claude', host_source: 'detected' });
    expect(load({ CLAUDECODE: '1' }).config.max_iterations).toBe(31);
    expect(load({ OPENCODE: '1' })).toMatchObject({ host: 'opencode', host_source: 'detected' });
    expect(load({ CLAUDECODE: '1', RALF_HOST: 'opencode' })).toMatchObject({ host: 'opencode', host_source: 'RALF_HOST' });
    expect(load({ RALF_HOST: 'opencode' }, 'claude')).toMatchObject({ host: 'claude', host_source: '--host' });
    expect(errorOf(() => load({}, 'vscode')).message).toMatch(/--host must be "opencode" or "claude"/);
  });
});

describe('bad input', () => {
  const cases: Array<[string, unknown, RegExp, RegExp?]> = [
    ['zero', { max_iterations: 0 }, /ralf_lite\.max_iterations/, />= 1/],
    ['string number', { max_iterations: '3' }, /ralf_lite\.max_iterations/, /the string "3"/],
    ['negative', { no_progress_repeats: -1 }, /ralf_lite\.no_progress_repeats/, />= 1/],
    ['float', { error_fingerprint_repeats: 2.5 }, /ralf_lite\.error_fingerprint_repeats/, /integer/],
    ['huge', { max_iterations: 1e9 }, /ralf_lite\.max_iterations/, /<= 100/],
    ['string boolean', { enabled: 'true' }, /ralf_lite\.enabled/, /boolean/],
    ['array for object', { apply_to: [true] }, /ralf_lite\.apply_to/, /an array/],
    ['nested type', { apply_to: { tdd_tasks: 1 } }, /ralf_lite\.apply_to\.tdd_tasks/, /boolean/],
  ];
  for (const [name, value, key, detail] of cases) {
    it(`rejects ${name}, naming the file, key, expected and received`, () => {
      const root = project(value);
      const err = errorOf(() => loadConfig({ cwd: root, env: isolatedEnv() }));
      expect(err.exitCode).toBe(2);
      const p = err.problems[0]!;
      expect(p.file).toBe(join(root, '.planning', 'config.json'));
      expect(p.key).toMatch(key);
      if (detail) expect(`${p.expected} ${p.received}`).toMatch(detail);
    });
  }

  it('an unknown key suggests the nearest valid key, also nested', () => {
    const root = project({ max_iteration: 3, apply_to: { auto_task: true } });
    const err = errorOf(() => loadConfig({ cwd: root, env: isolatedEnv() }));
    expect(err.problems.map((p) => [p.key, p.hint])).toEqual([
      ['ralf_lite.apply_to.auto_task', 'did you mean "auto_tasks"?'],
      ['ralf_lite.max_iteration', 'did you mean "max_iterations"?'],
    ]);
  });

  it('collects problems from both layers at once', () => {
    const g = globalDir({ enabled: 'yes' });
    const root = project({ max_iterations: 0 });
    const err = errorOf(() => loadConfig({ cwd: root, configDir: g, env: isolatedEnv() }));
    expect(err.problems.map((p) => p.key)).toEqual(['ralf_lite.enabled', 'ralf_lite.max_iterations']);
  });

  it('invalid JSON names the file, line and column', () => {
    const root = project();
    const file = join(root, '.planning', 'config.json');
    writeFileSync(file, '{\n  "mode": "yolo",\n  "ralf_lite": { "enabled": true, }\n}\n');
    const err = errorOf(() => loadConfig({ cwd: root, env: isolatedEnv() }));
    expect(err.problems[0]).toMatchObject({ file, line: 3 });
    expect(err.message).toContain(`${file}:3:`);
  });

  it.each([
    ['empty file', '', /empty/],
    ['whitespace only', '  \n', /empty/],
    ['BOM', '\uFEFF{"ralf_lite":{}}', /byte-order mark/],
    ['not an object', '[1,2]', /JSON object/],
    ['ralf_lite not an object', '{"ralf_lite": true}', /ralf_lite/],
    ['ralf_lite null', '{"ralf_lite": null}', /ralf_lite/],
  ])('%s is an error', (_name, text, pattern) => {
    const root = project();
    writeFileSync(join(root, '.planning', 'config.json'), text);
    const err = errorOf(() => loadConfig({ cwd: root, env: isolatedEnv() }));
    expect(err.exitCode).toBe(2);
    expect(`${err.message} ${JSON.stringify(err.problems)}`).toMatch(pattern);
  });

  it('a directory in place of the file is an error', () => {
    const root = project();
    mkdirSync(join(root, '.planning', 'config.json'));
    expect(errorOf(() => loadConfig({ cwd: root, env: isolatedEnv() })).message).toMatch(/is a directory/);
  });

  it.skipIf(process.getuid?.() === 0)('an unreadable file is an error', () => {
    const root = project({ enabled: true });
    chmodSync(join(root, '.planning', 'config.json'), 0o000);
    expect(errorOf(() => loadConfig({ cwd: root, env: isolatedEnv() })).message).toMatch(/permission denied/);
  });
});
