/**
 * Special files, huge or hostile input and a broken environment never hang, exhaust memory
 * or get called "a bug in ralf": FIFOs and devices where config, state or lock files belong,
 * duplicate config keys, escape sequences in config keys, hand-edited state with wrong types,
 * a YAML alias bomb, Markdown nested 50,000 deep or a 1 MB list, git missing, a read-only
 * `.planning`, TMPDIR pointing nowhere. Real CLI; every run is killed after 30 s (a hang
 * fails the test instead of stalling it).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PLAN_REL, Project, STATE_REL, SUMMARY_REL, cleanupTempDirs, scratch, start, task, type Exit } from './helpers.js';

afterAll(cleanupTempDirs);

function project(git = false): Project {
  return new Project({ tasks: [task('Task 1: Fail', 'sh -c "exit 1"')], git });
}

async function bounded(p: Project, args: string[], env?: Record<string, string | undefined>): Promise<Exit> {
  const child = start(args, { cwd: p.dir, env: env ?? p.env() });
  const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const r = await child.done;
  clearTimeout(guard);
  return r;
}

function mkfifo(path: string): void {
  const r = spawnSync('mkfifo', [path]);
  if (r.status !== 0) throw new Error(`mkfifo ${path} failed`);
}

const notABug = (r: Exit) => expect(r.stderr).not.toMatch(/internal error|This is a bug/);

describe.concurrent('hostile files and input', () => {
  it('a FIFO as .planning/config.json: exit 2 naming it, no hang', async () => {
    const p = project();
    const cfg = p.path('.planning/config.json');
    spawnSync('rm', [cfg]);
    mkfifo(cfg);
    const r = await bounded(p, ['task', 'verify', PLAN_REL, '1']);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(cfg);
    expect(r.stderr).toMatch(/not a regular file \(a FIFO\)/);
  });

  it('a config linked to /dev/zero: exit 2, bounded memory and time', async () => {
    const p = project();
    const cfg = p.path('.planning/config.json');
    spawnSync('rm', [cfg]);
    symlinkSync('/dev/zero', cfg);
    const r = await bounded(p, ['config']);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(cfg);
  });

  it('duplicate keys in config JSON are an error naming both lines', async () => {
    const p = project();
    p.write('.planning/config.json', '{\n  "ralf_lite": {\n    "max_iterations": 3,\n    "max_iterations": 50\n  }\n}\n');
    const r = await bounded(p, ['config']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/config\.json:4:5: duplicate key "max_iterations" \(also on line 3\)/);
  });

  it('terminal escape sequences in a config key are printed escaped', async () => {
    const p = project();
    p.write('.planning/config.json', JSON.stringify({ ralf_lite: { '\u001b]0;pwned\u0007\u001b[2Jevil': 1 } }));
    const r = await bounded(p, ['config']);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('\u001b');
    expect(r.stderr).not.toContain('\u0007');
    expect(r.stderr).toContain('\\x1b');
  });

  it('a FIFO as the state file or the lock file: exit 2 naming it, no hang', async () => {
    for (const rel of [STATE_REL, '.planning/ralf/01-01.lock']) {
      const p = project();
      mkdirSync(p.path('.planning/ralf'), { recursive: true });
      mkfifo(p.path(rel));
      const r = await bounded(p, ['task', 'verify', PLAN_REL, '1']);
      expect(r.signal, rel).toBeNull();
      expect(r.code, `${rel}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(p.path(rel));
    }
  });

  it('hand-edited state with wrong types: exit 2 naming the key, never "a bug"', async () => {
    const p = project();
    expect((await p.verify(1)).code).toBe(10);
    const state = JSON.parse(spawnSync('cat', [p.path(STATE_REL)], { encoding: 'utf8' }).stdout);
    for (const [key, bad] of [['iterations', '3'], ['max_iterations', 'three'], ['status', 7]] as const) {
      const k = Object.keys(state.tasks)[0]!; // keyed by task identity
      p.write(STATE_REL, JSON.stringify({ ...state, tasks: { ...state.tasks, [k]: { ...state.tasks[k], [key]: bad } } }));
      for (const args of [['task', 'verify', PLAN_REL, '1'], ['status'], ['report', PLAN_REL, '--create']]) {
        const r = await bounded(p, args);
        notABug(r);
        expect(r.code, `${key} ${args.join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.stderr).toContain(`.${key}`);
      }
    }
  });

  it('a YAML alias bomb in the plan frontmatter: exit 2 at once, no "internal error"', async () => {
    const p = project();
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) bomb.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
    p.write(PLAN_REL, `---\nphase: 01-demo\nplan: 01\nautonomous: true\n${bomb.join('\n')}\n---\n\n<tasks>\n${task('Task 1: Fail', 'sh -c "exit 1"')}\n</tasks>\n`);
    const r = await bounded(p, ['plan', PLAN_REL]);
    expect(r.signal).toBeNull();
    notABug(r);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/aliases/);
  });

  it('ralf report on 50,000 nested `>` and on a 1 MB list: exit 2 at once, the file unchanged', async () => {
    for (const body of ['>'.repeat(50_000) + ' deep\n', '- a\n  - b\n    - c\n'.repeat(Math.ceil(1_000_000 / 18))]) {
      const p = project();
      p.write(SUMMARY_REL, `# Summary\n\n${body}`);
      const r = await bounded(p, ['report', PLAN_REL]);
      expect(r.signal).toBeNull();
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(p.path(SUMMARY_REL));
    }
  });
});

describe.concurrent('a broken environment is named, never called a bug', () => {
  it('git missing from PATH: exit 1 saying so', async () => {
    const p = project(true);
    const bin = scratch('ralf-nogit-');
    symlinkSync('/bin/sh', join(bin, 'sh'));
    const r = await bounded(p, ['task', 'verify', PLAN_REL, '1'], p.env({ PATH: bin }));
    notABug(r);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/git is not installed/);
  });

  it('TMPDIR pointing at a missing directory is never created', async () => {
    const p = project(true);
    const missing = join(scratch('ralf-tmp-'), 'does', 'not', 'exist');
    const r = await bounded(p, ['task', 'verify', PLAN_REL, '1'], p.env({ TMPDIR: missing }));
    expect(r.code, r.stderr).toBe(10);
    expect(existsSync(join(missing, '..', '..'))).toBe(false);
  });

  it('a read-only .planning (EROFS) is reported as such, exit 1 naming the path', async (ctx) => {
    const p = project();
    const planning = p.path('.planning');
    const keep = scratch('ralf-ro-keep-');
    spawnSync('cp', ['-a', `${planning}/.`, keep]);
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', planning]);
    if (mounted.status !== 0) return ctx.skip();
    try {
      spawnSync('cp', ['-a', `${keep}/.`, planning]);
      expect(spawnSync('mount', ['-o', 'remount,ro', planning]).status).toBe(0);
      const r = await bounded(p, ['task', 'verify', PLAN_REL, '1']);
      notABug(r);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/read-only file system \(EROFS\)/);
      expect(r.stderr).toContain(join(planning, 'ralf'));
    } finally {
      spawnSync('umount', [planning]);
    }
  });
});

