import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, repoRoot, runCli, tempDir } from '../helpers/cli.js';

function project(config: unknown) {
  const root = tempDir();
  mkdirSync(join(root, '.git'));
  mkdirSync(join(root, '.planning'));
  writeFileSync(join(root, '.planning', 'config.json'), JSON.stringify(config));
  return root;
}

describe('ralf config', () => {
  it('--json prints config, per-key sources and files', async () => {
    const home = tempDir('ralf-home-');
    const globalDir = join(home, '.config', 'opencode', 'get-shit-done');
    mkdirSync(globalDir, { recursive: true });
    writeFileSync(join(globalDir, 'config.json'), JSON.stringify({ ralf_lite: { no_progress_repeats: 3 } }));
    const root = project({ mode: 'yolo', ralf_lite: { max_iterations: 5 } });
    const r = await runCli(['config', '--json', '--cwd', root], { env: cleanEnv({ HOME: home }) });
    expect(r.exitCode).toBe(0);
    const out = JSON.parse(String(r.stdout));
    expect(out.config.max_iterations).toBe(5);
    expect(out.config.no_progress_repeats).toBe(3);
    expect(out.sources.max_iterations).toBe(join(root, '.planning', 'config.json'));
    expect(out.sources.no_progress_repeats).toBe(join(globalDir, 'config.json'));
    expect(out.sources['apply_to.tdd_tasks']).toBe('default');
    expect(out.files.map((f: { layer: string }) => f.layer)).toEqual(['user', 'global', 'project']);
  });

  it("shows which file set each key, GSD's user defaults (~/.gsd/defaults.json) included", async () => {
    const home = tempDir('ralf-home-');
    mkdirSync(join(home, '.gsd'));
    const userFile = join(home, '.gsd', 'defaults.json');
    writeFileSync(userFile, JSON.stringify({ resolve_model_ids: 'omit', ralf_lite: { max_iterations: 8 } }));
    const root = project({ mode: 'yolo' });
    const r = await runCli(['config', '--cwd', root], { env: cleanEnv({ HOME: home }) });
    expect(r.exitCode).toBe(0);
    const text = String(r.stdout);
    expect(text).toMatch(new RegExp(`max_iterations\\s+8\\s+${userFile.replace(/[.]/g, '\\.')}`));
    expect(text).toContain(`user     ${userFile} (ralf_lite set)`);
    expect(text).toContain('defaults < user < global < project');
  });

  it('readable output shows each key with its source', async () => {
    const root = project({ ralf_lite: { enabled: false } });
    const r = await runCli(['config', '--cwd', root], { env: cleanEnv({ HOME: tempDir() }) });
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toMatch(/loop disabled/);
    expect(String(r.stdout)).toMatch(new RegExp(`enabled\\s+false\\s+${join(root, '.planning', 'config.json').replace(/[.]/g, '\\.')}`));
  });

  it('a config error exits 2, names file and key on stderr, and as JSON with --json', async () => {
    const root = project({ ralf_lite: { max_iterations: 0 } });
    const r = await runCli(['config', '--cwd', root], { env: cleanEnv({ HOME: tempDir() }) });
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain(`${join(root, '.planning', 'config.json')}: ralf_lite.max_iterations: invalid value (expected >= 1, received number 0)`);
    const j = await runCli(['config', '--json', '--cwd', root], { env: cleanEnv({ HOME: tempDir() }) });
    expect(j.exitCode).toBe(2);
    expect(JSON.parse(String(j.stdout)).error.problems[0]).toMatchObject({ key: 'ralf_lite.max_iterations', expected: '>= 1' });
  });

  it('--host and --config-dir select the global layer', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'get-shit-done'));
    writeFileSync(join(dir, 'get-shit-done', 'config.json'), JSON.stringify({ ralf_lite: { max_iterations: 8 } }));
    const root = project({});
    const r = await runCli(['config', '--json', '--cwd', root, '--host', 'claude', '--config-dir', dir], { env: cleanEnv({ HOME: tempDir() }) });
    const out = JSON.parse(String(r.stdout));
    expect(out.host).toMatchObject({ name: 'claude', source: '--host', config_dir: dir, config_dir_source: '--config-dir' });
    expect(out.config.max_iterations).toBe(8);
  });

  it('unknown flags are usage errors (exit 2)', async () => {
    const r = await runCli(['config', '--nope']);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toMatch(/--nope/);
  });
});

describe('ralf config schema', () => {
  it('matches the committed schemas/ralf-lite.schema.json (run `npm run docs` to regenerate)', async () => {
    const r = await runCli(['config', 'schema'], { stripFinalNewline: false });
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toBe(readFileSync(join(repoRoot, 'schemas', 'ralf-lite.schema.json'), 'utf8'));
    const schema = JSON.parse(String(r.stdout));
    expect(schema.properties.ralf_lite.additionalProperties).toBe(false);
    expect(schema.properties.ralf_lite.properties.max_iterations).toMatchObject({ type: 'integer', minimum: 1, default: 3 });
  });

  it("README's configuration reference matches the schema (run `npm run docs` to regenerate)", async () => {
    const r = await runCli(['config', 'schema', '--markdown'], { stripFinalNewline: false });
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const section = /<!-- config-reference:start -->\n([\s\S]*?)<!-- config-reference:end -->/.exec(readme)?.[1];
    expect(section).toBe(String(r.stdout));
  });
});

describe('ralf top level', () => {
  it('--version prints the package version', async () => {
    const r = await runCli(['--version']);
    expect(String(r.stdout).trim()).toBe(JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version);
  });
  it('unknown subcommand prints help and exits 2', async () => {
    const r = await runCli(['frobnicate']);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toMatch(/unknown command "frobnicate"[\s\S]*Commands:/);
  });
  it('--help exits 0 and lists commands', async () => {
    const r = await runCli(['--help']);
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toMatch(/task\s+Run the loop/);
  });
});
