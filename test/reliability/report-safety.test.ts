/**
 * `ralf report` never loses the user's text: only the section ralf wrote (between its own
 * markers, unedited) is replaced; report-like headings the user wrote (h1, setext, renamed,
 * notes under the section, text after a rule, a <details> wrapper) stay byte for byte; and
 * a write to SUMMARY.md landing while the report is written is never overwritten
 * (compare-and-swap before the rename). Real CLI, real files.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PLAN_REL, Project, SUMMARY_REL, cleanupTempDirs, task } from './helpers.js';

afterAll(cleanupTempDirs);

function project(summary: string): Project {
  const p = new Project({ tasks: [task('Task 1: Summarise', 'sh -c "exit 1"')], git: false });
  p.write(SUMMARY_REL, summary);
  return p;
}

const read = (p: Project) => readFileSync(p.path(SUMMARY_REL), 'utf8');
const START = '<!-- ralf-lite:loop-report:start sha256:';
const END = '<!-- ralf-lite:loop-report:end -->';

/** The user's document with ralf's marked section cut out (and the blank lines it brought). */
function withoutOwnSection(text: string): string {
  const s = text.indexOf(START);
  const e = text.indexOf(END, s);
  return (text.slice(0, s) + text.slice(e + END.length)).replace(/\n{3,}/g, '\n\n').trimEnd();
}

const USERS_OWN: Record<string, string> = {
  'an h1 with the title (and the Self-Check after it)': '# Summary\n\n# RALF Lite Loop Report\n\nmy h1 notes\n\n## Self-Check: PASSED\n\n- FOUND: src/a.js\n',
  'a setext heading with the title': '# Summary\n\nRALF Lite Loop Report\n=====================\n\nmy setext notes\n\n## Self-Check: PASSED\n',
  'a renamed heading': '# Summary\n\n## RALF Lite Loop Report (old)\n\nmy renamed notes\n',
  'an unmarked h2 (an older ralf, or the user) with ### notes, a rule and text after it': '# Summary\n\n## RALF Lite Loop Report\n\nold report\n\n### My own notes\n\nkeep me\n\n---\n\nmy paragraph after the rule\n',
  'an unmarked h2 inside <details>': '# Summary\n\n<details>\n<summary>Loop</summary>\n\n## RALF Lite Loop Report\n\nold\n\n</details>\n\nafter details\n',
};

describe.concurrent('ralf report leaves the user\'s text alone', () => {
  for (const [name, summary] of Object.entries(USERS_OWN)) {
    it(`${name}: kept byte for byte, a new marked section added; the next run replaces only that`, async () => {
      const p = project(summary);
      const r = await p.run(['report', PLAN_REL, '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).action).toBe('appended');
      const first = read(p);
      expect(withoutOwnSection(first)).toBe(summary.replace(/\n{3,}/g, '\n\n').trimEnd());
      // The second run (new state) replaces its own section only; the user's text is unchanged.
      await p.verify(1);
      const again = await p.run(['report', PLAN_REL, '--json']);
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout).action).toBe('replaced');
      expect(withoutOwnSection(read(p))).toBe(withoutOwnSection(first));
      expect(read(p).split(START).length).toBe(2);
    });
  }

  it('the user\'s notes after ralf\'s end marker, a rule and a paragraph survive every later run', async () => {
    const p = project('# Summary\n');
    expect((await p.run(['report', PLAN_REL])).code).toBe(0);
    const mine = '\n### My own notes\n\nkeep me\n\n---\n\nmy paragraph after the rule\n';
    p.write(SUMMARY_REL, read(p) + mine);
    await p.verify(1);
    const r = await p.run(['report', PLAN_REL, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).action).toBe('replaced');
    expect(read(p).endsWith(`${END}\n${mine}`)).toBe(true);
  });

  it('a section the user edited between the markers is kept; a new one is added with a warning', async () => {
    const p = project('# Summary\n');
    expect((await p.run(['report', PLAN_REL])).code).toBe(0);
    const edited = read(p).replace('Loop **enabled**', 'Loop **enabled** (my remark)');
    p.write(SUMMARY_REL, edited);
    const r = await p.run(['report', PLAN_REL, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(read(p).startsWith(edited)).toBe(true);
    expect(JSON.stringify(JSON.parse(r.stdout).warnings)).toMatch(/edited after ralf wrote it/);
  });
});

describe('ralf report and a concurrent writer', () => {
  it('a write landing while the report is written is kept (compare-and-swap, 8 trials)', async () => {
    let kept = 0;
    const trials = 8;
    for (let trial = 0; trial < trials; trial++) {
      const p = project('# Summary\n\n## Accomplishments\n\n- done\n');
      // Like an editor saving: as soon as ralf's temp file appears, the user's save lands.
      const writer = spawn(
        process.execPath,
        [
          '-e',
          `const fs = require('fs'); const path = require('path');
           const file = process.argv[1]; const dir = path.dirname(file);
           const w = fs.watch(dir, (ev, name) => {
             if (name && /^\\..*SUMMARY\\.md\\.\\d+\\..*\\.tmp$/.test(name)) {
               w.close();
               fs.writeFileSync(file, fs.readFileSync(file, 'utf8') + '\\nthe user saved this line\\n');
               process.exit(0);
             }
           });
           console.log('ready'); setTimeout(() => process.exit(3), 20000);`,
          p.path(SUMMARY_REL),
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const writerDone = new Promise<number | null>((resolve) => writer.once('exit', (c) => resolve(c)));
      await new Promise<void>((resolve) => writer.stdout.once('data', () => resolve()));
      const r = await p.run(['report', PLAN_REL, '--json']);
      const writerExit = await writerDone;
      expect(writerExit).toBe(0);
      expect([0, 75]).toContain(r.code);
      const text = read(p);
      // The user's line is never lost; the report is there unless ralf refused (75).
      expect(text, `trial ${trial}`).toContain('the user saved this line');
      // (A save computed from the file before ralf's rename and landing after it replaces the report: the user's editor wins, nothing of the user's is lost.)
      if (text.includes(START)) kept++;
    }
    expect(kept).toBeGreaterThan(0);
  });
});
