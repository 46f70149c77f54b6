/**
 * Broken SUMMARY.md files through the real `ralf report`: test/fixtures/bad/summaries
 * (outcomes in expected.json) plus cases that cannot be committed (a directory, a symlink
 * loop, a dangling link, a FIFO, a 50 MB file, read-only and immutable files). Each
 * either exits 2 naming the file (and line) and writes nothing, or legitimately succeeds,
 * keeps every byte outside the section, and is idempotent.
 */
import { chmodSync, copyFileSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { PLAN_REL, Project, SUMMARY_REL, cleanupTempDirs, task, treeListing, type Exit } from './helpers.js';

afterAll(cleanupTempDirs);

const corpus = join(repoRoot, 'test', 'fixtures', 'bad', 'summaries');
type Expected =
  | { exit: 2; line?: number; match: string }
  | { exit: 0; action: string; placement: string; line: number; warning: string | null; warningLine?: number; keeps?: string };
const expected: Record<string, Expected> = JSON.parse(readFileSync(join(corpus, 'expected.json'), 'utf8'));
const cases = readdirSync(corpus).filter((f) => f !== 'expected.json').sort();

const HEADING = '## RALF Lite Loop Report';

function project(): Project {
  return new Project({ tasks: [task('Task 1: Summarise', 'sh -c "exit 1"')], git: false });
}

async function report(p: Project, ...extra: string[]): Promise<Exit & { json: any }> {
  const child = p.start(['report', PLAN_REL, '--json', ...extra]);
  // A read that never ends (a FIFO) must fail the test, not hang it.
  const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const r = await child.done;
  clearTimeout(guard);
  let json: any = null;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    /* asserted below */
  }
  return { ...r, json };
}

/** exit 2, the error names the file (and line), nothing in the project changed. */
function expectRefused(r: Exit & { json: any }, file: string, match: string | RegExp, line?: number): void {
  expect(r.signal).toBeNull();
  expect(r.code, r.stderr).toBe(2);
  expect(r.json.error.kind).toMatch(/^summary_/);
  const p = r.json.error.problems[0];
  expect(p.file).toBe(file);
  // --json: the error is the one document on stdout; stderr stays quiet.
  expect(r.stderr).toBe('');
  if (line !== undefined) expect(p.line).toBe(line);
  expect(r.stdout).toContain(file);
  expect(r.json.error.message).toMatch(match);
}

describe('the bad-summary corpus', () => {
  it('has at least 12 cases, each with an expected outcome', () => {
    expect(cases.length).toBeGreaterThanOrEqual(12);
    expect(Object.keys(expected).sort()).toEqual(cases);
  });

  describe.concurrent.each(cases)('%s', (name) => {
    it('exits as expected and writes nothing it should not', async () => {
      const e = expected[name]!;
      const p = project();
      copyFileSync(join(corpus, name), p.path(SUMMARY_REL));
      const original = readFileSync(p.path(SUMMARY_REL));
      const file = p.path(SUMMARY_REL);
      const before = treeListing(p.dir);
      const r = await report(p);
      if (e.exit === 2) {
        expectRefused(r, file, e.match, e.line);
        expect(treeListing(p.dir)).toEqual(before);
        return;
      }
      expect(r.code, r.stderr).toBe(0);
      expect(r.json).toMatchObject({ action: e.action, placement: e.placement, line: e.line });
      if (e.warning === null) expect(r.json.warnings).toEqual([]);
      else {
        // One warning per thing left alone (two old unmarked sections: two warnings).
        expect(r.json.warnings.length).toBeGreaterThanOrEqual(1);
        for (const w of r.json.warnings) expect(w).toMatchObject({ file, message: expect.stringContaining(e.warning), ...(e.warningLine ? { line: e.warningLine } : {}) });
        // With --json the warnings are in the document only.
        expect(r.stderr).toBe('');
      }
      const after = readFileSync(p.path(SUMMARY_REL));
      const text = after.toString('utf8');
      // Only SUMMARY.md changed; the section is there once at the reported line.
      const { [SUMMARY_REL]: _s, ...rest } = treeListing(p.dir);
      const { [SUMMARY_REL]: _b, ...restBefore } = before;
      expect(rest).toEqual(restBefore);
      // Lines are counted by LF (as git and ralf's other messages do; a lone CR does not end a line).
      expect(text.split('\n')[e.line - 1]!.replace(/\r$/, '')).toBe(HEADING);
      // Every byte outside the section stays: an appended section keeps the original as a prefix.
      if (e.action === 'appended' && e.placement === 'end') expect(after.subarray(0, original.length).equals(original)).toBe(true);
      if (e.keeps) expect(text).toContain(e.keeps);
      // Idempotent: the next run finds its own section and changes nothing.
      const again = await report(p);
      expect(again.code).toBe(0);
      expect(again.json.action).toBe('unchanged');
      expect(readFileSync(p.path(SUMMARY_REL)).equals(after)).toBe(true);
    });
  });

  it('a CRLF summary gets a CRLF section; bytes outside it are kept exactly', async () => {
    const p = project();
    copyFileSync(join(corpus, '20-report-then-self-check-crlf.md'), p.path(SUMMARY_REL));
    expect((await report(p)).code).toBe(0);
    const text = readFileSync(p.path(SUMMARY_REL), 'utf8');
    expect(text.startsWith(`# Demo Summary\r\n\r\n${HEADING}\r\n`)).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/\n/);
    expect(text.endsWith('\r\n\r\n## Self-Check: PASSED\r\n\r\n- FOUND: src/a.js\r\n')).toBe(true);
  });
});

describe('summaries that cannot be committed', () => {
  it('a directory in place of SUMMARY.md: exit 2 naming it', async () => {
    const p = project();
    mkdirSync(p.path(SUMMARY_REL));
    const before = treeListing(p.dir);
    expectRefused(await report(p), p.path(SUMMARY_REL), /is a directory/);
    expect(treeListing(p.dir)).toEqual(before);
  });

  it('a symlink loop: exit 2 naming it', async () => {
    const p = project();
    symlinkSync('01-01-SUMMARY.md', p.path(SUMMARY_REL));
    const before = treeListing(p.dir);
    expectRefused(await report(p), p.path(SUMMARY_REL), /symbolic link loop/);
    expect(treeListing(p.dir)).toEqual(before);
  });

  it('a dangling symlink is a missing summary (exit 2); the link is left alone', async () => {
    const p = project();
    symlinkSync('gone/elsewhere.md', p.path(SUMMARY_REL));
    const before = treeListing(p.dir);
    expectRefused(await report(p), p.path(SUMMARY_REL), /does not exist/);
    expect(treeListing(p.dir)).toEqual(before);
  });

  it('a FIFO: exit 2 at once instead of blocking on the read', async () => {
    const p = project();
    expect(spawnSync('mkfifo', [p.path(SUMMARY_REL)]).status).toBe(0);
    const before = treeListing(p.dir);
    expectRefused(await report(p), p.path(SUMMARY_REL), /not a regular file/);
    expect(treeListing(p.dir)).toEqual(before);
  });

  it('a 50 MB summary (and 1 byte over the 1 MiB limit): exit 2, not read, not changed', async () => {
    const p = project();
    const line = '- item with some **bold** text and `code` in it, number 0000000\n';
    writeFileSync(p.path(SUMMARY_REL), `# Phase 01 Plan 01: Big Summary\n\n${line.repeat(Math.ceil((50 * 1024 * 1024) / line.length))}`);
    expect(statSync(p.path(SUMMARY_REL)).size).toBeGreaterThanOrEqual(50 * 1024 * 1024);
    const before = treeListing(p.dir);
    expectRefused(await report(p), p.path(SUMMARY_REL), /is too large \(\d+ bytes or more; a SUMMARY file is at most 1048576 bytes\)/);
    expect(treeListing(p.dir)).toEqual(before);

    writeFileSync(p.path(SUMMARY_REL), `# S\n\n${'x'.repeat(1024 * 1024 + 1 - 5)}`);
    expect(statSync(p.path(SUMMARY_REL)).size).toBe(1024 * 1024 + 1);
    expectRefused(await report(p), p.path(SUMMARY_REL), /is too large \(1048577 bytes or more/);
  });

  it('a read-only (0444) SUMMARY.md is updated by rename like git or an editor would, and stays 0444', async () => {
    // Permission bits on the file never protect it from a rename in a writable directory (root or not).
    const p = project();
    writeFileSync(p.path(SUMMARY_REL), '# Phase 01 Plan 01: Demo Summary\n');
    chmodSync(p.path(SUMMARY_REL), 0o444);
    const r = await report(p);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.action).toBe('appended');
    expect(readFileSync(p.path(SUMMARY_REL), 'utf8')).toContain(HEADING);
    expect(statSync(p.path(SUMMARY_REL)).mode & 0o777).toBe(0o444);
  });

  const immutable = (() => {
    const probe = join(project().dir, 'probe');
    writeFileSync(probe, '');
    const ok = spawnSync('chattr', ['+i', probe]).status === 0;
    if (ok) spawnSync('chattr', ['-i', probe]);
    return ok;
  })();
  it.skipIf(!immutable)('an immutable SUMMARY.md (chattr +i; blocks even root): exit 1 naming the file, unchanged', async () => {
    const p = project();
    writeFileSync(p.path(SUMMARY_REL), '# Phase 01 Plan 01: Demo Summary\n');
    expect(spawnSync('chattr', ['+i', p.path(SUMMARY_REL)]).status).toBe(0);
    try {
      const before = treeListing(p.dir);
      const r = await report(p);
      expect(r.code).toBe(1);
      expect(r.json.error).toMatchObject({ kind: 'io', code: 'EPERM', path: p.path(SUMMARY_REL) });
      expect(r.stderr).toBe('');
      expect(r.json.error.message).toContain(`-> ${p.path(SUMMARY_REL)}: operation not permitted`);
      expect(r.stdout).not.toMatch(/internal error|bug in ralf/);
      // The temp file was removed; the summary is untouched.
      expect(treeListing(p.dir)).toEqual(before);
    } finally {
      spawnSync('chattr', ['-i', p.path(SUMMARY_REL)]);
    }
  });

  // Root ignores directory permission bits, so a read-only directory is only testable without root.
  it.skipIf(process.getuid?.() === 0)('a read-only phase directory (non-root only: root ignores permission bits): exit 1 naming the path, unchanged', async () => {
    const p = project();
    writeFileSync(p.path(SUMMARY_REL), '# Phase 01 Plan 01: Demo Summary\n');
    const dir = p.path(SUMMARY_REL.replace(/\/[^/]+$/, ''));
    const before = treeListing(p.dir);
    chmodSync(dir, 0o555);
    try {
      const r = await report(p);
      expect(r.code).toBe(1);
      expect(r.json.error).toMatchObject({ kind: 'io', code: 'EACCES' });
    } finally {
      chmodSync(dir, 0o755);
    }
    expect(treeListing(p.dir)).toEqual(before);
  });
});
