import { lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, runCli, tempDir } from '../helpers/cli.js';
import { sampleState } from './sample.js';

const PLAN = `---
phase: 05-core
plan: 02
autonomous: true
---

<tasks>
<task type="auto">
  <name>Task 1: Dice roll engine</name>
  <verify>npm test</verify>
</task>
<task type="auto">
  <name>Task 2: Scoring | pipes \`and ticks\`</name>
  <verify>npm test -- scoring</verify>
</task>
<task type="auto" tdd="true">
  <name>Task 3: Handicap rules</name>
</task>
<task type="checkpoint:human-verify" gate="blocking">
  <name>Task 4: Verify game feel</name>
</task>
<task type="auto">
  <name>Task 5: Wire the store</name>
  <verify>npm run typecheck</verify>
</task>
</tasks>
`;

const SUMMARY = `---
phase: 05-core
plan: 02
---

# Phase 5 Plan 2: Scoring Summary

## Accomplishments

- Scoring engine

## Self-Check: PASSED

- FOUND: src/score.ts
`;

function project(options: { state?: unknown; summary?: string | Buffer | null } = {}) {
  const root = tempDir('ralf-report-');
  mkdirSync(join(root, '.git'));
  const phase = join(root, '.planning', 'phases', '05-core');
  mkdirSync(phase, { recursive: true });
  mkdirSync(join(root, '.planning', 'ralf'));
  writeFileSync(join(phase, '05-02-PLAN.md'), PLAN);
  if (options.summary !== null) writeFileSync(join(phase, '05-02-SUMMARY.md'), options.summary ?? SUMMARY);
  if (options.state !== undefined) writeFileSync(join(root, '.planning', 'ralf', '05-02.json'), typeof options.state === 'string' ? options.state : JSON.stringify(options.state, null, 2));
  return { root, plan: join(phase, '05-02-PLAN.md'), summary: join(phase, '05-02-SUMMARY.md') };
}

const env = () => cleanEnv({ HOME: tempDir('ralf-home-') });
const report = (args: string[], cwd?: string) => runCli(['report', ...args], { env: env(), ...(cwd ? { cwd } : {}) });

describe('ralf report', () => {
  it('writes the section before the trailing Self-Check; a second run leaves the file alone', async () => {
    const p = project({ state: sampleState() });
    const r = await report(['.planning/phases/05-core/05-02-PLAN.md'], p.root);
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toContain(`Appended the RALF Lite Loop Report in ${p.summary} before "## Self-Check: PASSED" (line 13)`);
    const written = readFileSync(p.summary, 'utf8');
    expect(written.startsWith(SUMMARY.slice(0, SUMMARY.indexOf('## Self-Check')))).toBe(true);
    expect(written.endsWith('\n\n## Self-Check: PASSED\n\n- FOUND: src/score.ts\n')).toBe(true);
    expect(written).toContain('| 2. Scoring \\| pipes \\`and ticks\\` | loop     |        2/3 | repeated_fingerprint |        9.9s |');
    expect(written).toContain('- **Task 4: Verify game feel**: refused — checkpoint:human-verify tasks need a human');
    // The footer names the command that refreshes the section, as it runs where the file is read.
    expect(written).toMatch(/_Written by `node \S+\/ralf\.js report \.planning\/phases\/05-core\/05-02-PLAN\.md` from `\.planning\/ralf\/05-02\.json`/);

    const mtime = statSync(p.summary).mtimeMs;
    const again = await report([p.plan, '--json']);
    expect(again.exitCode).toBe(0);
    expect(JSON.parse(String(again.stdout))).toMatchObject({ action: 'unchanged', placement: 'existing', line: 13 });
    expect(readFileSync(p.summary, 'utf8')).toBe(written);
    expect(statSync(p.summary).mtimeMs).toBe(mtime);
  });

  it('--json prints summary, action, dry_run, section and tasks', async () => {
    const p = project({ state: sampleState() });
    const r = await report([p.plan, '--json']);
    expect(r.exitCode).toBe(0);
    const out = JSON.parse(String(r.stdout));
    expect(out).toMatchObject({ summary: p.summary, action: 'appended', dry_run: false, placement: 'before-self-check', state_found: true, warnings: [] });
    expect(out.section.startsWith('## RALF Lite Loop Report\n')).toBe(true);
    expect(readFileSync(p.summary, 'utf8')).toContain(out.section);
    expect(out.tasks.map((t: { number: number | null; stop_reason: string | null }) => [t.number, t.stop_reason])).toEqual([
      [1, 'success'],
      [2, 'repeated_fingerprint'],
      [3, null],
      [4, null],
      [5, 'not run'],
      [null, 'success'],
    ]);
  });

  it('--dry-run prints the section and writes nothing', async () => {
    const p = project({ state: sampleState() });
    const r = await report([p.plan, '--dry-run']);
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toContain('Would append the RALF Lite Loop Report');
    expect(String(r.stdout)).toContain('dry run: nothing written');
    expect(String(r.stdout)).toContain('| Task ');
    expect(readFileSync(p.summary, 'utf8')).toBe(SUMMARY);
    const j = await report([p.plan, '--dry-run', '--json']);
    expect(JSON.parse(String(j.stdout))).toMatchObject({ action: 'appended', dry_run: true });
    expect(readFileSync(p.summary, 'utf8')).toBe(SUMMARY);
  });

  it('a missing SUMMARY.md is an error naming the expected path; --create makes a minimal one', async () => {
    const p = project({ state: sampleState(), summary: null });
    const r = await report([p.plan]);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain(`${p.summary} does not exist`);
    expect(String(r.stderr)).toContain('--create');

    const c = await report([p.plan, '--create', '--json']);
    expect(c.exitCode).toBe(0);
    expect(JSON.parse(String(c.stdout))).toMatchObject({ action: 'created' });
    const created = readFileSync(p.summary, 'utf8');
    expect(created.startsWith('# Phase 05 Plan 02 Summary\n\n<!-- ralf-lite:loop-report:start sha256:')).toBe(true);
    expect((await report([p.plan, '--create', '--json']).then((x) => JSON.parse(String(x.stdout)))).action).toBe('unchanged');
  });

  it('--summary writes another file', async () => {
    const p = project({ state: sampleState() });
    const other = join(p.root, 'OTHER.md');
    writeFileSync(other, '# Other\n');
    const r = await report([p.plan, '--summary', 'OTHER.md', '--json'], p.root);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(String(r.stdout)).summary).toBe(other);
    expect(readFileSync(other, 'utf8').startsWith('# Other\n\n<!-- ralf-lite:loop-report:start sha256:')).toBe(true);
    expect(readFileSync(p.summary, 'utf8')).toBe(SUMMARY);
  });

  it('writes through a symlinked SUMMARY.md, keeping the link', async () => {
    const p = project({ state: sampleState(), summary: null });
    const target = join(p.root, 'real-summary.md');
    writeFileSync(target, SUMMARY);
    symlinkSync(target, p.summary);
    const r = await report([p.plan]);
    expect(r.exitCode).toBe(0);
    expect(lstatSync(p.summary).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toContain('## RALF Lite Loop Report');
  });

  it('binary or non-UTF-8 summaries and an unterminated frontmatter: exit 2, file untouched', async () => {
    const cases: Array<[Buffer | string, RegExp]> = [
      [Buffer.from('# T\n\0\0binary\n'), /contains a NUL byte/],
      [Buffer.from([0x23, 0x20, 0x54, 0x0a, 0xc3, 0x28, 0x0a]), /not valid UTF-8/],
      ['---\nphase: 1\n\n# T\n', /frontmatter opened on line 1 is never closed/],
    ];
    for (const [content, message] of cases) {
      const p = project({ state: sampleState(), summary: content });
      const before = readFileSync(p.summary);
      const r = await report([p.plan]);
      expect(r.exitCode).toBe(2);
      expect(String(r.stderr)).toMatch(message);
      expect(readFileSync(p.summary).equals(before)).toBe(true);
    }
  });

  it('frontmatter that YAML parsers reject: warns with file:line, writes the body anyway', async () => {
    const summary = '---\nphase: 14\ntech-stack:\n  added: [vitest, @vitest/ui]\n---\n\n# Phase 14 Plan 1 Summary\n';
    const p = project({ state: sampleState(), summary });
    const r = await report([p.plan]);
    expect(r.exitCode).toBe(0);
    expect(String(r.stderr)).toContain(`warning: ${p.summary}:4:`);
    expect(String(r.stderr)).toContain('frontmatter is not valid YAML');
    const written = readFileSync(p.summary, 'utf8');
    expect(written.startsWith(summary)).toBe(true);
  });

  it('without loop state: looped tasks are `not run`, and the config comes from the config files', async () => {
    const p = project();
    writeFileSync(join(p.root, '.planning', 'config.json'), JSON.stringify({ ralf_lite: { max_iterations: 5 } }));
    const r = await report([p.plan, '--json']);
    expect(r.exitCode).toBe(0);
    const out = JSON.parse(String(r.stdout));
    expect(out.state_found).toBe(false);
    expect(out.tasks.filter((t: { decision: string }) => t.decision === 'loop').every((t: { stop_reason: string }) => t.stop_reason === 'not run')).toBe(true);
    expect(out.section).toContain('| 1. Dice roll engine               | loop     |        0/5 | not run ');
    expect(out.section).toContain('- `.planning/config.json`: `max_iterations: 5`');
    expect(out.section).toContain('no loop state recorded yet (`.planning/ralf/05-02.json` not found)');
  });

  it('invalid state JSON, a missing plan and missing arguments exit 2', async () => {
    const p = project({ state: '{ "schema_version": 1, ' });
    const bad = await report([p.plan]);
    expect(bad.exitCode).toBe(2);
    expect(String(bad.stderr)).toContain(join(p.root, '.planning', 'ralf', '05-02.json'));
    expect(readFileSync(p.summary, 'utf8')).toBe(SUMMARY);

    const missing = await report([join(p.root, 'nope-PLAN.md')]);
    expect(missing.exitCode).toBe(2);
    expect(String(missing.stderr)).toContain('no such file');

    const usage = await report([]);
    expect(usage.exitCode).toBe(2);
    expect(String(usage.stderr)).toContain('missing <PLAN.md>');
  });
});
