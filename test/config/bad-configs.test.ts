import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { RalfError } from '../../src/errors.js';
import { cleanEnv, repoRoot, runCli, tempDir } from '../helpers/cli.js';

const corpus = join(repoRoot, 'test', 'fixtures', 'bad', 'configs');
const expected: Record<string, { line?: number; key?: string; match: string }> = JSON.parse(readFileSync(join(corpus, 'expected.json'), 'utf8'));
const cases = readdirSync(corpus).filter((f) => f !== 'expected.json').sort();

/** Every file and its bytes + mtime under a dir, to prove nothing was written. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[p] = `${readFileSync(p).toString('base64')}@${statSync(p).mtimeMs}`;
    }
  };
  walk(dir);
  return out;
}

describe('bad config corpus (test/fixtures/bad/configs)', () => {
  it('has an expectation for every case and at least 30 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
    expect(Object.keys(expected).sort()).toEqual(cases);
  });

  const problemText = (err: { message: string; problems: Array<Record<string, unknown>> }) =>
    [err.message, ...err.problems.map((p) => [p.key, p.message, p.expected, p.received, p.hint].join(' '))].join('\n');

  function setUp(name: string, layer: 'project' | 'global') {
    const root = tempDir();
    const home = tempDir('ralf-home-');
    mkdirSync(join(root, '.git'));
    mkdirSync(join(root, '.planning'));
    const dir = layer === 'project' ? join(root, '.planning') : join(home, '.config', 'opencode', 'get-shit-done');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'config.json');
    copyFileSync(join(corpus, name), file);
    return { root, home, file };
  }

  function expectProblem(name: string, file: string, err: { message: string; problems: Array<Record<string, unknown>> }) {
    const exp = expected[name]!;
    const problem = err.problems[0]!;
    expect(problem.file).toBe(file);
    if (exp.key) expect(problem.key).toBe(exp.key);
    if (exp.line) expect(problem.line).toBe(exp.line);
    expect(problemText(err)).toContain(exp.match);
  }

  for (const name of cases) {
    // Through the real CLI: exit code, JSON error, stderr, and nothing written.
    it(`${name} as the project file: exit 2, names file and ${expected[name]!.key ? 'key' : 'line'}, writes nothing`, async () => {
      const { root, home, file } = setUp(name, 'project');
      const before = { ...snapshot(root), ...snapshot(home) };
      const r = await runCli(['config', '--json', '--cwd', root], { env: cleanEnv({ HOME: home }) });
      expect(r.exitCode).toBe(2);
      expectProblem(name, file, JSON.parse(String(r.stdout)).error);
      // --json: the error is the one document on stdout; stderr stays quiet.
      expect(String(r.stderr)).toBe('');
      expect({ ...snapshot(root), ...snapshot(home) }).toEqual(before);
    });

    // The same file as the global layer, in-process (the CLI path is the same code).
    it(`${name} as the global file: a RalfError (exit 2) naming file and ${expected[name]!.key ? 'key' : 'line'}`, () => {
      const { root, home, file } = setUp(name, 'global');
      const before = snapshot(home);
      let err: unknown;
      try {
        loadConfig({ cwd: root, env: { HOME: home } });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(RalfError);
      expect((err as RalfError).exitCode).toBe(2);
      expectProblem(name, file, err as RalfError as unknown as { message: string; problems: Array<Record<string, unknown>> });
      expect(snapshot(home)).toEqual(before);
    });
  }

  it('a directory in place of config.json: exit 2 naming it', async () => {
    const root = tempDir();
    mkdirSync(join(root, '.git'));
    mkdirSync(join(root, '.planning', 'config.json'), { recursive: true });
    const r = await runCli(['config', '--cwd', root], { env: cleanEnv({ HOME: tempDir() }) });
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain(`${join(root, '.planning', 'config.json')} is a directory`);
  });

  it('a valid file next to GSD keys of every shape is accepted untouched', async () => {
    const root = tempDir();
    mkdirSync(join(root, '.git'));
    mkdirSync(join(root, '.planning'));
    const text = JSON.stringify({ mode: 'yolo', depth: 'standard', workflow: { research: true, auto_advance: 'true' }, parallelization: true, gates: {}, ralf_lite: { max_iterations: 4 } }, null, 4);
    writeFileSync(join(root, '.planning', 'config.json'), text);
    const r = await runCli(['config', '--json', '--cwd', root], { env: cleanEnv({ HOME: tempDir() }) });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(String(r.stdout)).config.max_iterations).toBe(4);
    expect(readFileSync(join(root, '.planning', 'config.json'), 'utf8')).toBe(text);
  });
});
