/**
 * kill -9 of `ralf report` at many points: SUMMARY.md is always the old or the new content
 * byte-for-byte (never partial), and the next run writes the new content exactly once.
 */
import { readdirSync, readFileSync, watch } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ENDLESS, PLAN_REL, Project, SUMMARY_REL, cleanupTempDirs, sha256, sleep, spreadDelays, task } from './helpers.js';

afterAll(cleanupTempDirs);

/** A GSD-shaped summary (~12 KB, CRLF-free) with a trailing Self-Check the report goes before. */
function oldSummary(): string {
  const body = Array.from({ length: 120 }, (_, i) => `- Decision ${i + 1}: kept the **scoring** table in \`src/score.ts\` (see 01-01 notes)`).join('\n');
  return `---\nphase: 01-demo\nplan: 01\nsubsystem: core\n---\n\n# Phase 01 Plan 01: Reliability Summary\n\n## Accomplishments\n\n${body}\n\n## Self-Check: PASSED\n\n- FOUND: src/a.js\n`;
}

/**
 * Temp files an atomic write leaves when killed between creating and renaming them: the new
 * content's temp, or the replaced SUMMARY.md hard-linked aside by the compare-and-swap (`.old.tmp`).
 */
const TEMP = /^\.01-01-SUMMARY\.md\.\d+\.[0-9a-z]+(?:\.old)?\.tmp$/;

describe('kill -9 during ralf report', () => {
  it('SUMMARY.md is the old or the new content byte-for-byte at every kill point', async () => {
    const p = new Project({ tasks: [task('Task 1: Report me', 'sh -c "exit 1"')], config: ENDLESS, git: false });
    expect((await p.verify(1)).code).toBe(10);
    const OLD = oldSummary();
    p.write(SUMMARY_REL, OLD);
    const report = ['report', PLAN_REL, '--json'];

    // The reference: an uninterrupted run (warm, like the kill runs), then one to time.
    const first = await p.run(report);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ action: 'appended', placement: 'before-self-check' });
    const NEW = readFileSync(p.path(SUMMARY_REL), 'utf8');
    expect(NEW.startsWith(OLD.slice(0, OLD.indexOf('## Self-Check')))).toBe(true);
    expect(NEW).toContain('## RALF Lite Loop Report');
    p.write(SUMMARY_REL, OLD);
    const t0 = Date.now();
    expect((await p.run(report)).code).toBe(0);
    const lifetime = Date.now() - t0;
    expect(readFileSync(p.path(SUMMARY_REL), 'utf8')).toBe(NEW);

    const phaseDir = dirname(p.path(SUMMARY_REL));
    const seen = { old: 0, new: 0 };
    const delays = [...spreadDelays(lifetime, 12, 5), ...spreadDelays(Math.round(lifetime / 4), 6, 9).map((d) => Math.round(lifetime * 0.75) + d)];
    for (const delay of delays) {
      p.write(SUMMARY_REL, OLD);
      const child = p.start(report);
      await sleep(delay);
      child.kill('SIGKILL');
      const exit = await child.done;
      const now = readFileSync(p.path(SUMMARY_REL), 'utf8');
      expect([sha256(OLD), sha256(NEW)]).toContain(sha256(now));
      if (exit.signal === null) expect(now).toBe(NEW);
      seen[now === OLD ? 'old' : 'new']++;
    }
    // Kills on markers: the temp file appearing (before the rename), the rename itself.
    for (const marker of ['temp', 'rename'] as const) {
      for (let round = 0; round < 2; round++) {
        p.write(SUMMARY_REL, OLD);
        const child = p.start(report);
        const w = watch(phaseDir, (_, name) => {
          if (name && (marker === 'temp' ? TEMP.test(name) : name === '01-01-SUMMARY.md')) child.kill('SIGKILL');
        });
        const exit = await child.done;
        w.close();
        const now = readFileSync(p.path(SUMMARY_REL), 'utf8');
        expect([sha256(OLD), sha256(NEW)]).toContain(sha256(now));
        // (No claim about which of the two: the watch event reaches this process after the
        // child may already have renamed the temp file into place.)
        if (exit.signal === null) expect(now).toBe(NEW);
        seen[now === OLD ? 'old' : 'new']++;
      }
    }
    expect(seen.old).toBeGreaterThan(0);
    expect(seen.new).toBeGreaterThan(0);

    // The phase directory holds the plan, the summary and at most temp-file debris.
    const extra = readdirSync(phaseDir).filter((n) => n !== '01-01-PLAN.md' && n !== '01-01-SUMMARY.md');
    for (const n of extra) expect(n).toMatch(TEMP);

    // The next run finishes the job exactly once; the one after changes nothing.
    p.write(SUMMARY_REL, OLD);
    const again = await p.run(report);
    expect(again.code).toBe(0);
    expect(readFileSync(p.path(SUMMARY_REL), 'utf8')).toBe(NEW);
    const idle = await p.run(report);
    expect(JSON.parse(idle.stdout).action).toBe('unchanged');
    expect(readFileSync(p.path(SUMMARY_REL), 'utf8')).toBe(NEW);
  }, 90_000);
});
