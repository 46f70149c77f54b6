/**
 * The report against every real GSD SUMMARY.md: the section goes in, everything outside
 * it stays byte-identical, a second run changes nothing, and a changed report replaces
 * the section in place.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPORT_HEADING, buildLoopReport } from '../../src/report/build-report.js';
import { stringifyMarkdown } from '../../src/report/markdown.js';
import { markSection } from '../../src/report/locate-section.js';
import { readSummaryText } from '../../src/report/summary-file.js';
import { detectEol, upsertSection } from '../../src/report/upsert-section.js';
import { sharedDir } from '../helpers/cli.js';
import { sampleInput, sampleState } from './sample.js';

const corpus = join(sharedDir, 'fixtures', 'gsd-real');
// readdir's recursive walk includes dot directories (the summaries live under `.planning/`).
const summaries = (readdirSync(corpus, { recursive: true, encoding: 'utf8' }) as string[])
  .filter((p) => p.endsWith('-SUMMARY.md'))
  .map((p) => join(corpus, p))
  .sort();

const sectionA = stringifyMarkdown(buildLoopReport(sampleInput()));
const sectionB = (() => {
  const state = sampleState();
  delete state.tasks['2'];
  state.updated_at = '2026-03-02T08:00:00.000Z';
  return stringifyMarkdown(buildLoopReport(sampleInput(state)));
})();

/** Independent of the implementation's offsets: the longest common prefix and suffix (they may overlap). */
function differingMiddle(before: string, after: string): { prefix: number; suffix: number } {
  let prefix = 0;
  while (prefix < before.length && prefix < after.length && before[prefix] === after[prefix]) prefix++;
  let suffix = 0;
  while (suffix < before.length && suffix < after.length && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++;
  return { prefix, suffix };
}

const expectedPlacement: Record<string, { placement: string; before?: string }> = {
  'FerroxLabs__wayland-core/.planning/phases/20A-native-windows-macos-uat/20A-04-SUMMARY.md': { placement: 'before-self-check', before: '## Self-Check (§13.10): PASSED' },
  'FerroxLabs__wayland-core/.planning/phases/28-native-cross-platform-certification/28-03-SUMMARY.md': { placement: 'before-self-check', before: '## Self-Check: PASSED' },
  'hudsor01__tenant-flow/.planning/phases/55-rent-ledger/55-03-SUMMARY.md': { placement: 'before-self-check', before: '## Self-Check: PASSED' },
  // Self-Check sits mid-document there (two sections follow it): the report goes at the end.
  'hudsor01__tenant-flow/.planning/milestones/v1.0-phases/05-pricing-restructure/05-01-SUMMARY.md': { placement: 'end' },
  '4everinbeta__liminal/.planning/phases/07-make-iphone-compatible-app-version/07-02-SUMMARY.md': { placement: 'before-self-check', before: '## Self-Check: PASSED' },
  'jushyi__Flick/.planning/phases/50-cicd-pipeline/50-03-SUMMARY.md': { placement: 'before-footer', before: '---' },
  'AllTheMachines__Faceplate/.planning/phases/14-security-foundation-upload-pipeline/14-01-SUMMARY.md': { placement: 'before-footer', before: '---' },
  'MarkMichiels__livemathtex/.planning/phases/23-remove-latex2sympy/23-01-SUMMARY.md': { placement: 'end' },
  'Arengard__navision_gdpdu/.planning/phases/05-integration/05-01-SUMMARY.md': { placement: 'end' },
};

describe('every real SUMMARY.md', () => {
  it('finds all 28 summaries (including those under dot directories)', () => {
    expect(summaries).toHaveLength(28);
    for (const key of Object.keys(expectedPlacement)) expect(summaries).toContain(join(corpus, key));
  });

  describe.each(summaries.map((p) => [relative(corpus, p), p]))('%s', (name, path) => {
    const original = readSummaryText(path)!;
    const eol = detectEol(original);

    it('inserts the section and leaves every other byte unchanged', () => {
      const r = upsertSection(original, sectionA, path, REPORT_HEADING);
      expect(r.action).toBe('appended');
      const body = markSection(sectionA).trimEnd().replace(/\n/g, eol);
      expect(r.text.slice(r.start, r.end)).toBe(body);
      // Prefix and suffix, compared with the original by the implementation's own offsets...
      expect(r.text.slice(0, r.replaced.start)).toBe(original.slice(0, r.replaced.start));
      expect(r.text.slice(r.text.length - (original.length - r.replaced.end))).toBe(original.slice(r.replaced.end));
      // ...and independently: what differs is the section plus blank-line separators only.
      // An insertion means new = original[0, k) + inserted + original[k, end) for some k;
      // common prefix and suffix may overlap (e.g. both "## " before "## Self-Check").
      const { prefix, suffix } = differingMiddle(original, r.text);
      expect(prefix + suffix).toBeGreaterThanOrEqual(original.length);
      const added = r.text.length - original.length;
      const cuts = Array.from({ length: prefix - (original.length - suffix) + 1 }, (_, i) => original.length - suffix + i);
      expect(cuts.some((k) => r.text.slice(k, k + added).trim() === body)).toBe(true);
      if (eol === '\r\n') expect(r.text.slice(r.start, r.end)).not.toMatch(/(^|[^\r])\n/);
      const expected = expectedPlacement[name];
      if (expected) expect({ placement: r.placement, ...(expected.before ? { before: r.before } : {}) }).toEqual(expected);
    });

    it('is idempotent, and a changed report replaces the section in place', () => {
      const first = upsertSection(original, sectionA, path, REPORT_HEADING);
      const again = upsertSection(first.text, sectionA, path, REPORT_HEADING);
      expect(again.action).toBe('unchanged');
      expect(again.text).toBe(first.text);

      const changed = upsertSection(first.text, sectionB, path, REPORT_HEADING);
      expect(changed.action).toBe('replaced');
      expect(changed.placement).toBe('existing');
      expect(changed.text.slice(0, changed.start)).toBe(first.text.slice(0, first.start));
      expect(changed.text.slice(changed.end)).toBe(first.text.slice(first.end));
      expect(changed.text.slice(changed.start, changed.end)).toBe(markSection(sectionB).trimEnd().replace(/\n/g, eol));
      expect(upsertSection(changed.text, sectionB, path, REPORT_HEADING).action).toBe('unchanged');
    });
  });

  it('warns (and still writes) for the frontmatter js-yaml rejects, naming the line', () => {
    const path = join(corpus, 'AllTheMachines__Faceplate/.planning/phases/14-security-foundation-upload-pipeline/14-01-SUMMARY.md');
    const original = readSummaryText(path)!;
    const r = upsertSection(original, sectionA, path, REPORT_HEADING);
    expect(r.warnings).toHaveLength(1);
    const w = r.warnings[0]!;
    expect(w.message).toMatch(/^frontmatter is not valid YAML: /);
    expect(original.split('\n')[w.line! - 1]).toContain('@');
  });

  it('the two CRLF summaries stay CRLF throughout', () => {
    const crlf = summaries.filter((p) => detectEol(readSummaryText(p)!) === '\r\n');
    expect(crlf).toHaveLength(2);
    for (const p of crlf) {
      const r = upsertSection(readSummaryText(p)!, sectionA, p, REPORT_HEADING);
      expect(r.text).not.toMatch(/(^|[^\r])\n/);
    }
  });
});
