import { describe, expect, it } from 'vitest';
import { REPORT_HEADING } from '../../src/report/build-report.js';
import { markSection } from '../../src/report/locate-section.js';
import { detectEol, upsertSection } from '../../src/report/upsert-section.js';
import { errorOf } from '../helpers/errors.js';

const S = '## RALF Lite Loop Report\n\nLoop **enabled**.\n\n| Task | Decision |\n| ---- | -------- |\n| 1. A | loop     |\n';
const S2 = '## RALF Lite Loop Report\n\nLoop **disabled**.\n';
const up = (text: string, section = S) => upsertSection(text, section, 'SUMMARY.md', REPORT_HEADING);
/** The section as ralf writes it: between its markers, ending in a newline. */
const M = markSection(S);
const M2 = markSection(S2);

describe('upsertSection', () => {
  it('appends the marked section with one blank line, keeping the final newline', () => {
    expect(M.startsWith('<!-- ralf-lite:loop-report:start sha256:')).toBe(true);
    expect(M.endsWith('\n<!-- ralf-lite:loop-report:end -->\n')).toBe(true);
    expect(up('# T\n\nText\n').text).toBe(`# T\n\nText\n\n${M}`);
    expect(up('# T\n\nText\n\n').text).toBe(`# T\n\nText\n\n${M}`);
  });

  it('keeps a missing final newline missing, and is idempotent then', () => {
    const r = up('# T\n\nText');
    expect(r.text).toBe(`# T\n\nText\n\n${M.trimEnd()}`);
    expect(up(r.text).action).toBe('unchanged');
    expect(up(r.text, S2).text).toBe(`# T\n\nText\n\n${M2.trimEnd()}`);
  });

  it('handles an empty file, a whitespace-only file and a frontmatter-only file', () => {
    expect(up('').text).toBe(M);
    expect(up('\n').text).toBe(`\n${M}`);
    expect(up('---\nphase: 1\n---\n').text).toBe(`---\nphase: 1\n---\n\n${M}`);
  });

  it('replaces its own section in place, only up to its end marker', () => {
    const withNotes = `# T\n\nText\n\n${M}\n### My own notes\n\nmine\n\n---\n\nafter the rule\n\n## Next\n\nkept\n`;
    const r = up(withNotes, S2);
    expect(r.action).toBe('replaced');
    expect(r.text).toBe(`# T\n\nText\n\n${M2}\n### My own notes\n\nmine\n\n---\n\nafter the rule\n\n## Next\n\nkept\n`);
    expect(r.line).toBe(6);
    expect(r.warnings).toEqual([]);
  });

  it('a section inside <details> keeps the closing tag', () => {
    const doc = `# T\n\n<details>\n<summary>Loop report</summary>\n\n${M}\n</details>\n\n## Next\n`;
    const r = up(doc, S2);
    expect(r.action).toBe('replaced');
    expect(r.text).toBe(`# T\n\n<details>\n<summary>Loop report</summary>\n\n${M2}\n</details>\n\n## Next\n`);
  });

  it('leaves every other report-like heading alone (h1, setext, renamed, unmarked, nested) and adds its own', () => {
    const docs = [
      '# RALF Lite Loop Report\n\nthe user\'s text\n\n## Self-Check: PASSED\n\n- ok\n',
      'RALF Lite Loop Report\n---------------------\n\nthe user\'s text\n',
      '## RALF Lite Loop Report (old)\n\nthe user\'s text\n',
      '## RALF Lite Loop Report\n\nan older, unmarked report\n\n### My own notes\n\nmine\n',
      '## Verify\n\n### RALF Lite Loop Report\n\nold\n\n### Build\n',
      '##   ralf lite loop REPORT (v2)\n\nold\n',
    ];
    for (const doc of docs) {
      const r = up(doc, S2);
      expect(r.action, doc).toBe('appended');
      // Every line of the user's document is still there, in order, around the new section.
      const norm = (t: string) => t.replace(/\n{3,}/g, '\n\n').trimEnd();
      expect(norm(r.text.replace(M2.trimEnd(), '')), doc).toBe(norm(doc));
      expect(r.warnings.length, doc).toBeGreaterThan(0);
      expect(up(r.text, S2).action, doc).toBe('unchanged');
    }
    // The h1 one: the new section goes before the Self-Check, the h1's text is kept.
    expect(up(docs[0]!, S2).text).toBe(`# RALF Lite Loop Report\n\nthe user's text\n\n${M2}\n## Self-Check: PASSED\n\n- ok\n`);
  });

  it('a section the user edited between the markers is left alone; a new one is added', () => {
    const first = up('# T\n').text;
    const edited = first.replace('Loop **enabled**.', 'Loop **enabled**. My remark.');
    const r = up(edited, S2);
    expect(r.action).toBe('appended');
    expect(r.text).toBe(`${edited}\n${M2}`);
    expect(r.warnings[0]?.message).toMatch(/edited after ralf wrote it/);
    expect(r.warnings[0]?.line).toBe(4);
  });

  it('a section whose end marker is gone is left alone', () => {
    const first = up('# T\n').text.replace('<!-- ralf-lite:loop-report:end -->\n', '');
    const r = up(first, S2);
    expect(r.action).toBe('appended');
    expect(r.text.startsWith(first)).toBe(true);
    expect(r.warnings[0]?.message).toMatch(/lost its end marker/);
  });

  it('ignores markers and headings inside code fences and block quotes', () => {
    const fenced = '```\n' + M + '```\n';
    expect(up(`# T\n\n${fenced}`).placement).toBe('end');
    expect(up(`# T\n\n${M.replace(/^/gm, '> ')}`).placement).toBe('end');
  });

  it('goes before a trailing Self-Check, before the first of several in a row', () => {
    expect(up('# T\n\n## Done\n\nx\n\n## Self-Check: PASSED\n\n- ok\n').text).toBe(`# T\n\n## Done\n\nx\n\n${M}\n## Self-Check: PASSED\n\n- ok\n`);
    const pair = '# T\n\n## Done\n\n## Self-Check\n\n### Files\n\n## Self-Check: PASSED\n';
    expect(up(pair).before).toBe('## Self-Check');
    // A Self-Check in the middle (more sections follow) is not trailing.
    expect(up('# T\n\n## Self-Check: PASSED\n\n## Surface Summary\n\nx\n').placement).toBe('end');
  });

  it('goes before the GSD footer (--- and emphasis-only lines)', () => {
    const doc = '# T\n\n## Next\n\n- ok\n\n---\n*Phase: 01-x*\n*Completed: 2026-01-01*\n';
    const r = up(doc);
    expect(r.placement).toBe('before-footer');
    expect(r.text).toBe(`# T\n\n## Next\n\n- ok\n\n${M}\n---\n*Phase: 01-x*\n*Completed: 2026-01-01*\n`);
    // Re-running does not swallow the footer into the section.
    expect(up(r.text, S2).text).toBe(`# T\n\n## Next\n\n- ok\n\n${M2}\n---\n*Phase: 01-x*\n*Completed: 2026-01-01*\n`);
  });

  it('a rule followed by ordinary text is not a footer', () => {
    expect(up('# T\n\n---\n\nMore text.\n').placement).toBe('end');
  });

  it('writes CRLF sections into CRLF documents', () => {
    const doc = '# T\r\n\r\nText\r\n';
    const r = up(doc);
    expect(r.text).toBe(`# T\r\n\r\nText\r\n\r\n${M.replace(/\n/g, '\r\n')}`);
    expect(up(r.text).action).toBe('unchanged');
    expect(up(r.text, S2).action).toBe('replaced');
    expect(detectEol('a\r\nb\r\nc\n')).toBe('\r\n');
    expect(detectEol('a\nb\r\nc\n')).toBe('\n');
  });

  it('keeps UTF-16 offsets right around emoji, astral characters and German text', () => {
    const doc = up('# Größe 😀 𝄞\n\nalt 👨‍👩‍👧\n\n## Straße 🚀\n\nÄ\n').text;
    const r = up(doc, S2);
    expect(r.text).toBe(doc.replace(M.trimEnd(), M2.trimEnd()));
  });

  it('keeps a BOM and finds its section after it', () => {
    const r = up(`\uFEFF${M}`, S2);
    expect(r.text).toBe(`\uFEFF${M2}`);
  });

  it('never parses the frontmatter as Markdown (a `## ...` line in YAML is no heading)', () => {
    const doc = '---\nnote: |\n  ## RALF Lite Loop Report\n---\n\n# T\n';
    const r = up(doc);
    expect(r.placement).toBe('end');
    expect(r.text.startsWith(doc)).toBe(true);
  });

  it('warns on frontmatter YAML rejects but still splices the body', () => {
    const doc = '---\nphase: 1\nadded: [vitest, @vitest/ui]\n---\n\n# T\n';
    const r = up(doc);
    expect(r.warnings).toMatchObject([{ file: 'SUMMARY.md', line: 3, message: expect.stringMatching(/^frontmatter is not valid YAML/) }]);
    expect(r.text).toBe(`${doc}\n${M}`);
  });

  it('refuses an unterminated frontmatter, naming the line', () => {
    const e = errorOf(() => up('---\nphase: 1\n\n# T\n'));
    expect(e.kind).toBe('summary_invalid');
    expect(e.exitCode).toBe(2);
    expect(e.problems[0]).toMatchObject({ file: 'SUMMARY.md', line: 1 });
  });

  it('refuses to append after an unclosed code fence (the section would be swallowed)', () => {
    const e = errorOf(() => up('# T\n\n```sh\nnever closed\n'));
    expect(e.kind).toBe('summary_unsafe');
    expect(e.message).toMatch(/not changed/);
  });

  it('warns about duplicate own sections and updates only the first', () => {
    const r = up(`${M}\n${M}`, S2);
    expect(r.text).toBe(`${M2}\n${M}`);
    expect(r.warnings[0]?.message).toMatch(/2 sections are headed/);
  });
});
