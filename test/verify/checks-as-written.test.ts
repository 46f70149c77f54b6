/**
 * Checks as written (#13), end to end: real temp git repos, the built CLI, real child
 * processes. Each case is a task that is looped (`ralf plan`), fails (`ralf task verify`,
 * exit 10) and passes after the fix (exit 0).
 */
import { chmodSync, mkdirSync, symlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLAN_REL, Project } from '../engine/project.js';
import { repoRoot } from '../helpers/cli.js';
import { taskLoop } from '../helpers/state.js';

function task(verify: string, extra = '', attrs = 'type="auto"'): string {
  return [`<task ${attrs}>`, '  <name>Task 1: Make the check pass</name>', '  <files>value.json</files>', '  <action>Do it.</action>', extra, `  <verify>${verify}</verify>`, '</task>'].join('\n');
}

async function planOf(p: Project, env?: Record<string, string | undefined>) {
  const r = await p.run(['plan', PLAN_REL, '--json'], env ? { env } : {});
  return { code: r.exitCode, json: JSON.parse(String(r.stdout)), stdout: String(r.stdout) };
}

async function verify(p: Project, env?: Record<string, string | undefined>) {
  const r = await p.run(['task', 'verify', PLAN_REL, '1', '--json'], env ? { env } : {});
  let json: any = null;
  try {
    json = JSON.parse(String(r.stdout));
  } catch {
    /* refusals print JSON too; leave null otherwise */
  }
  return { code: r.exitCode, json, stderr: String(r.stderr) };
}

/** Looped by `ralf plan`, exit 10 now, exit 0 after `fix`. */
async function loopsFailsPasses(p: Project, fix: () => void, env?: Record<string, string | undefined>) {
  const plan = await planOf(p, env);
  expect(plan.json.tasks[0].decision, plan.json.tasks[0].reason).toBe('loop');
  const before = await verify(p, env);
  expect(before.code, JSON.stringify(before.json?.checks ?? before.stderr)).toBe(10);
  fix();
  const after = await verify(p, env);
  expect(after.code, JSON.stringify(after.json?.checks ?? after.stderr)).toBe(0);
  return { plan, before, after };
}

describe('scripts run as written', () => {
  it('a heredoc in <automated> is one script: the assertion in its body decides', async () => {
    const p = new Project({ tasks: task(`<automated>node - <<'JS'\nconst v = require('./value.json').v;\nif (v !== 42) { console.error('Error: value is ' + v); process.exit(1); }\nJS</automated>`), files: { 'value.json': '{"v": 41}\n' } });
    const { before } = await loopsFailsPasses(p, () => p.write('value.json', '{"v": 42}\n'));
    expect(before.json.checks).toHaveLength(1);
    expect(before.json.checks[0].output_tail).toContain('Error: value is 41');
  });

  it('a bash fence with cd and export runs in the directory and environment it sets up', async () => {
    const fence = ['```bash', 'cd web', 'export MODE=strict', 'sh ok.sh', '```'].join('\n');
    const p = new Project({ tasks: task(fence), files: { 'web/ok.sh': '[ "$MODE" = strict ] || { echo "Error: MODE is $MODE"; exit 1; }\n[ -f done.txt ] || { echo "Error: web/done.txt missing"; exit 1; }\n' } });
    const { before } = await loopsFailsPasses(p, () => p.write('web/done.txt', 'ok\n'));
    expect(before.json.checks[0].output_tail).toContain('Error: web/done.txt missing');
  });

  it('`[ -f x ]` and `sleep 0.1; test -f x` are checks (builtins resolve everywhere)', async () => {
    for (const verifyText of ['`[ -f x ]`', '`sleep 0.1; test -f x`']) {
      const p = new Project({ tasks: task(verifyText) });
      await loopsFailsPasses(p, () => p.write('x', ''));
    }
  });

  it('a program on no list: inline code resolves it on PATH; in <automated> a missing one fails with its own "command not found", then passes once installed', async () => {
    const p = new Project({ tasks: task('`zzcheck --strict value.json`'), files: { 'value.json': '{"v": 1}\n' } });
    const bin = join(p.dir, '.home', 'bin');
    mkdirSync(bin, { recursive: true });
    p.write('.home/bin/zzcheck', '#!/bin/sh\ngrep -q 42 "$2" || { echo "Error: $2 has no 42"; exit 1; }\n');
    chmodSync(join(bin, 'zzcheck'), 0o755);
    const env = p.env({ PATH: `${bin}${delimiter}${process.env.PATH}` });
    await loopsFailsPasses(p, () => p.write('value.json', '{"v": 42}\n'), env);

    const q = new Project({ tasks: task('<automated>zzmissing --check</automated>') });
    const qbin = join(q.dir, '.home', 'bin');
    const qenv = q.env({ PATH: `${qbin}${delimiter}${process.env.PATH}` });
    const { before } = await loopsFailsPasses(
      q,
      () => {
        q.write('.home/bin/zzmissing', '#!/bin/sh\nexit 0\n');
        chmodSync(join(qbin, 'zzmissing'), 0o755);
      },
      qenv,
    );
    expect(before.json.checks[0].output_tail).toMatch(/zzmissing: (?:command )?not found/);
  });
});

describe('results judged as the plan means them', () => {
  it('<fails_when> "Ran 0 tests" fails a run that exits 0 having run nothing', async () => {
    const runner = "const fs = require('fs');\nconst n = fs.existsSync('tests') ? fs.readdirSync('tests').length : 0;\nconsole.log('Ran ' + n + ' test' + (n === 1 ? '' : 's') + ' in 0.001s');\nconsole.log('OK');\n";
    const p = new Project({ tasks: task('<automated>node runner.js</automated>\n<fails_when>non-zero exit, or "Ran 0 tests" in the output</fails_when>'), files: { 'runner.js': runner } });
    const { before } = await loopsFailsPasses(p, () => p.write('tests/test_a.py', 'pass\n'));
    expect(before.json.checks[0]).toMatchObject({ exit_code: 0, passed: false });
    expect(before.json.checks[0].output_tail).toContain('<fails_when>: the output contains "Ran 0 tests"');
  });

  it('a watch-mode vitest (`npm test` → "vitest") runs once, says so, fails on the failing test and passes after the fix', async () => {
    const p = new Project({
      tasks: task('<automated>npm test</automated>'),
      files: {
        'package.json': '{"name":"w","private":true,"type":"module","scripts":{"test":"vitest"}}\n',
        'src/value.js': 'export const value = 41;\n',
        'src/value.test.js': "import { expect, it } from 'vitest';\nimport { value } from './value.js';\nit('is 42', () => { expect(value).toBe(42); });\n",
        '.gitignore': '.home/\nnode_modules\n',
      },
    });
    symlinkSync(join(repoRoot, 'node_modules'), join(p.dir, 'node_modules'));
    const env = p.env({ CI: '' });
    const { before, after } = await loopsFailsPasses(p, () => p.write('src/value.js', 'export const value = 42;\n'), env);
    expect(before.json.checks[0].output_tail).toContain('run once (watch mode off)');
    expect(after.json.checks[0].notes[0]).toMatch(/package.json "test" is "vitest"/);
  }, 60_000);

  it('`cmd 2>&1 | grep -v noise`: a plan-time warning, and the check fails while anything but the noise is left', async () => {
    const tsc = "const fs = require('fs');\nconst errs = fs.readFileSync('errors.txt', 'utf8').split('\\n').filter(Boolean);\nfor (const e of errs) console.log(e);\nprocess.exit(errs.length > 0 ? 2 : 0);\n";
    const p = new Project({ tasks: task('<automated>node tsc.js 2>&1 | grep -v "bindings.ts"</automated>'), files: { 'tsc.js': tsc, 'errors.txt': 'src/bindings.ts(3,1): error TS1: generated\nsrc/a.ts(1,1): error TS2322: wrong\n' } });
    const plain = await p.run(['plan', PLAN_REL]);
    expect(String(plain.stdout)).toMatch(/grep -v exits 0 when lines are LEFT/);
    // Only the generated file's error left: what the author filtered out, so it passes (tsc still exits 2).
    const { before } = await loopsFailsPasses(p, () => p.write('errors.txt', 'src/bindings.ts(3,1): error TS1: generated\n'));
    expect(before.json.checks[0].output_tail).toContain('src/a.ts(1,1): error TS2322');
    const text = await p.run(['task', 'verify', PLAN_REL, '1']);
    expect(String(text.stdout)).toMatch(/note: .*grep -v/);
  });
});

describe('GSD Core tasks that need something first', () => {
  it('tracker-id without gsd_run is refused (exit 2), never run from the PLAN.md text; resolved content is looped', async () => {
    const p = new Project({ tasks: task('<automated>true</automated>', '', 'type="auto" tracker-id="GH-7"') });
    const plan = await planOf(p);
    expect(plan.json.tasks[0]).toMatchObject({ decision: 'refuse', reason: expect.stringContaining('gsd_run') });
    const refused = await verify(p);
    expect(refused.code).toBe(2);
    // A resolver that answers as GSD Core's `gsd_run task resolve-content --raw` does.
    const bin = join(p.dir, '.home', 'bin');
    p.write('.home/bin/gsd_run', '#!/bin/sh\n[ "$1 $2" = "task resolve-content" ] || exit 9\necho \'{"resolved":true,"content":{"verify":"`test -f tracked.txt`","done":null}}\'\n');
    chmodSync(join(bin, 'gsd_run'), 0o755);
    const env = p.env({ PATH: `${bin}${delimiter}${process.env.PATH}` });
    const { plan: resolved } = await loopsFailsPasses(p, () => p.write('tracked.txt', ''), env);
    expect(resolved.json.tasks[0].checks[0].command).toBe('test -f tracked.txt');
  });

  it('user_setup env vars a person must set: refused up front with what to do; looped once they are set', async () => {
    const p = new Project({ tasks: task('`test -f x`') });
    const text = p.read(PLAN_REL).replace('autonomous: true', 'autonomous: true\nuser_setup:\n  - service: stripe\n    why: "payments"\n    env_vars:\n      - name: STRIPE_SECRET_KEY\n        source: "Stripe Dashboard -> API keys"');
    p.write(PLAN_REL, text);
    const refused = await verify(p);
    expect(refused.code).toBe(2);
    expect(JSON.stringify(refused.json)).toContain('set STRIPE_SECRET_KEY (Stripe Dashboard -> API keys)');
    await loopsFailsPasses(p, () => p.write('x', ''), p.env({ STRIPE_SECRET_KEY: 'sk_test_1' }));
  });
});

describe('pre-existing failures (the baseline of `ralf task start`)', () => {
  // A runner with two tests: `legacy` is broken before the task; `feature` needs feature.txt.
  const RUNNER = "const fs = require('fs');\nlet failed = 0;\nfor (const [name, ok] of [['legacy', fs.existsSync('legacy-fixed')], ['feature', fs.existsSync('feature.txt')]]) {\n  if (ok) console.log('✓ ' + name); else { failed++; console.log('✗ ' + name); console.log('FAIL tests/' + name + '.test.js > ' + name); }\n}\nconsole.log(failed + ' failed');\nprocess.exit(failed ? 1 : 0);\n";
  const project = (config: Record<string, unknown> = {}) => new Project({ tasks: task('<automated>node runner.js</automated>'), files: { 'runner.js': RUNNER }, config });

  it('report (default): recorded at task start, shown apart in the verify answer and the handoff; still blocks', async () => {
    const p = project({ max_iterations: 2 });
    expect((await p.run(['task', 'start', PLAN_REL, '1'])).exitCode).toBe(0);
    expect(taskLoop(p.state(), 1).baseline).toMatchObject({ source: 'task_start', failing: [{ command: 'node runner.js' }] });
    p.write('feature.txt', 'done\n');
    const r = await verify(p);
    expect(r.code).toBe(10);
    expect(r.json.already_failing[0]).toMatch(/^node runner\.js/);
    p.write('feature.txt', 'done again\n');
    const stop = await verify(p);
    expect(stop.code).toBe(20);
    expect(stop.json.handoff.markdown).toContain('**Already failing before the task**');
    // The command is code a human can copy; what is known about it is text beside it.
    expect(stop.json.handoff.markdown).toMatch(/^- `node runner\.js` — .*legacy.* \(still failing/m);
    expect(stop.json.handoff.already_failing[0]).toMatch(/^node runner\.js — .*legacy.* \(still failing/);
  });

  it('allow: a check failing only as it did before the task does not block once the agent changed something', async () => {
    const p = project({ preexisting_failures: 'allow' });
    expect((await p.run(['task', 'start', PLAN_REL, '1'])).exitCode).toBe(0);
    const idle = await verify(p);
    expect(idle.code).toBe(10); // nothing changed: old failures never pass an idle agent
    p.write('feature.txt', 'done\n');
    const r = await verify(p);
    expect(r.code, JSON.stringify(r.json?.checks)).toBe(0);
    expect(r.json.checks[0].notes.join(' ')).toMatch(/already failing before the task/);
  });
});
