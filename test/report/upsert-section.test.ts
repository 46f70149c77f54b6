import { describe, expect, it } from 'vitest';
import { REPORT_HEADING } from '../../src/report/build-report.js';
import { detectEol, upsertSection } from '../../src/report/upsert-section.js';
import { errorOf } from '../helpers/errors.js';

const S = '## RALF Lite Loop Report\n\nLoop **enabled**.\n\n| Task | Decision |\n| ---- | -------- |\n| 1. A | loop     |\n';
const S2 = '## RALF Lite Loop Report\n\nLoop **disabled**.\n';
const up = (text: string, section = S) => upsertSection(text, section, 'SUMMARY.md', REPORT_HEADING);

describe('upsertSection', () => {
  it('appends with one blank line, keeping the final newline', () => {
    expect(up('# T\n\nText\n').text).toBe(`# T\n\nText\n\n${S}`);
    expect(up('# T\n\nText\n\n').text).toBe(`# T\n\nText\n\n${S}`);
  });

  it('keeps a missing final newline missing, and is idempotent then', () => {
    const r = up('# T\n\nText');
    expect(r.text).toBe(`# T\n\nText\n\n${S.trimEnd()}`);
    expect(up(r.text).action).toBe('unchanged');
    expect(up(r.text, S2).text).toBe(`# T\n\nText\n\n${S2.trimEnd()}`);
  });

  it('handles an empty file, a whitespace-only file and a frontmatter-only file', () => {
    expect(up('').text).toBe(S);
    expect(up('\n').text).toBe(`\n${S}`);
    expect(up('---\nphase: 1\n---\n').text).toBe(`---\nphase: 1\n---\n\n${S}`);
  });

  it('replaces an existing section in place, up to the next heading of the same or higher rank', () => {
    const doc = '# T\n\n## RALF Lite Loop Report\n\nold\n\n### sub\n\nold too\n\n## Next\n\nkept\n';
    const r = up(doc, S2);
    expect(r.action).toBe('replaced');
    expect(r.text).toBe(`# T\n\n${S2}\n## Next\n\nkept\n`);
    expect(r.line).toBe(3);
  });

  it('matches the heading text loosely (case, spacing, extra words) but only top-level headings', () => {
    const doc = '# T\n\n- ## RALF Lite Loop Report\n\n>  ## RALF Lite Loop Report\n\n##   ralf lite loop REPORT (v2)\n\nold\n';
    const r = up(doc, S2);
    expect(r.placement).toBe('existing');
    expect(r.text).toBe(`# T\n\n- ## RALF Lite Loop Report\n\n>  ## RALF Lite Loop Report\n\n${S2}`);
  });

  it('ignores headings inside code fences, before and inside the section', () => {
    const fenced = '```\n## RALF Lite Loop Report\n```\n';
    expect(up(`# T\n\n${fenced}`).placement).toBe('end');
    const doc = `# T\n\n## RALF Lite Loop Report\n\n\`\`\`sh\n# not a heading\n## nor this\n\`\`\`\n\n## After\n`;
    const r = up(doc, S2);
    expect(r.text).toBe(`# T\n\n${S2}\n## After\n`);
  });

  it('understands setext headings as section boundaries', () => {
    const doc = 'Title\n=====\n\n## RALF Lite Loop Report\n\nold\n\nNext\n----\n\nkept\n';
    expect(up(doc, S2).text).toBe(`Title\n=====\n\n${S2}\nNext\n----\n\nkept\n`);
  });

  it('keeps a nested section at its level', () => {
    const r = up('## Verify\n\n### RALF Lite Loop Report\n\nold\n\n### Build\n', S2);
    expect(r.text).toBe(`## Verify\n\n### RALF Lite Loop Report\n\nLoop **disabled**.\n\n### Build\n`);
    expect(up(r.text, S2).action).toBe('unchanged');
  });

  it('goes before a trailing Self-Check, before the first of several in a row', () => {
    expect(up('# T\n\n## Done\n\nx\n\n## Self-Check: PASSED\n\n- ok\n').text).toBe(`# T\n\n## Done\n\nx\n\n${S}\n## Self-Check: PASSED\n\n- ok\n`);
    const pair = '# T\n\n## Done\n\n## Self-Check\n\n### Files\n\n## Self-Check: PASSED\n';
    expect(up(pair).before).toBe('## Self-Check');
    // A Self-Check in the middle (more sections follow) is not trailing.
    expect(up('# T\n\n## Self-Check: PASSED\n\n## Surface Summary\n\nx\n').placement).toBe('end');
  });

  it('goes before the GSD footer (--- and emphasis-only lines)', () => {
    const doc = '# T\n\n## Next\n\n- ok\n\n---\n*Phase: 01-x*\n*Completed: 2026-01-01*\n';
    const r = up(doc);
    expect(r.placement).toBe('before-footer');
    expect(r.text).toBe(`# T\n\n## Next\n\n- ok\n\n${S}\n---\n*Phase: 01-x*\n*Completed: 2026-01-01*\n`);
    // Re-running does not swallow the footer into the section.
    expect(up(r.text, S2).text).toBe(`# T\n\n## Next\n\n- ok\n\n${S2}\n---\n*Phase: 01-x*\n*Completed: 2026-01-01*\n`);
  });

  it('a rule followed by ordinary text is not a footer', () => {
    expect(up('# T\n\n---\n\nMore text.\n').placement).toBe('end');
  });

  it('writes CRLF sections into CRLF documents', () => {
    const doc = '# T\r\n\r\nText\r\n';
    const r = up(doc);
    expect(r.text).toBe(`# T\r\n\r\nText\r\n\r\n${S.replace(/\n/g, '\r\n')}`);
    expect(up(r.text).action).toBe('unchanged');
    expect(detectEol('a\r\nb\r\nc\n')).toBe('\r\n');
    expect(detectEol('a\nb\r\nc\n')).toBe('\n');
  });

  it('keeps UTF-16 offsets right around emoji, astral characters and German text', () => {
    const doc = '# Größe 😀 𝄞\n\n## RALF Lite Loop Report\n\nalt 👨‍👩‍👧\n\n## Straße 🚀\n\nÄ\n';
    const r = up(doc, S2);
    expect(r.text).toBe(`# Größe 😀 𝄞\n\n${S2}\n## Straße 🚀\n\nÄ\n`);
  });

  it('keeps a BOM and parses the heading after it', () => {
    const r = up('\uFEFF## RALF Lite Loop Report\n\nold\n', S2);
    expect(r.text).toBe(`\uFEFF${S2}`);
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
    expect(r.text).toBe(`${doc}\n${S}`);
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

  it('warns about duplicate sections and updates only the first', () => {
    const r = up('## RALF Lite Loop Report\n\na\n\n## RALF Lite Loop Report\n\nb\n', S2);
    expect(r.text).toBe(`${S2}\n## RALF Lite Loop Report\n\nb\n`);
    expect(r.warnings[0]?.message).toMatch(/2 sections are headed/);
  });

  it('an indented heading is replaced from its line start', () => {
    expect(up('# T\n\n  ## RALF Lite Loop Report\n\nold\n', S2).text).toBe(`# T\n\n${S2}`);
  });
});
