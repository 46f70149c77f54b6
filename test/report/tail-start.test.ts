import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPORT_HEADING } from '../../src/report/build-report.js';
import { findFrontmatter } from '../../src/report/frontmatter.js';
import { locateSection, markSection, START_MARKER_PREFIX } from '../../src/report/locate-section.js';
import { parseMarkdownBlocks } from '../../src/report/markdown.js';
import { tailStart, tailStarts } from '../../src/report/tail-start.js';
import { locate } from '../../src/report/upsert-section.js';
import { sharedDir } from '../helpers/cli.js';

function summaries(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...summaries(p));
    else if (e.name.endsWith('SUMMARY.md')) out.push(p);
  }
  return out;
}

const section = `## ${REPORT_HEADING.replace(/^#+\s*/, '')}\n\nLoop **enabled**.\n\n| a | b |\n| - | - |\n| 1 | 2 |\n`;

/** The finder's answer from a full parse and from the tail parse must be identical. */
function expectSameLocation(text: string) {
  const fm = findFrontmatter(text, 'x.md');
  const shift = fm ? fm.end : text.startsWith('\uFEFF') ? 1 : 0;
  const body = text.slice(shift);
  const full = locateSection(text, shift, parseMarkdownBlocks(body), REPORT_HEADING);
  // As `ralf report` does: a marked section's start marker must be inside the parsed tail.
  const marker = body.indexOf(START_MARKER_PREFIX);
  const start = tailStart(body, REPORT_HEADING, marker === -1 ? body.length : marker);
  const tail = locateSection(text, shift + start, parseMarkdownBlocks(body.slice(start)), REPORT_HEADING);
  expect(tail).toEqual(full);
  return start;
}

describe('tailStart: parsing only the tail locates the same section as parsing everything', () => {
  const files = summaries(join(sharedDir, 'fixtures', 'gsd-real'));
  it('covers every real summary', () => expect(files.length).toBeGreaterThanOrEqual(28));
  for (const file of files) {
    const name = file.slice(file.indexOf('gsd-real/') + 9);
    it(name, () => {
      const text = readFileSync(file, 'utf8');
      expectSameLocation(text);
      const lines = text.split('\n');
      const middle = lines.findIndex((l, i) => i > lines.length / 2 && /^## /.test(l));
      if (middle > 0) expectSameLocation([...lines.slice(0, middle), section, ...lines.slice(middle)].join('\n'));
      expectSameLocation(`${text.replace(/\n*$/, '\n\n')}${section}`);
      // A section ralf wrote earlier (between its markers), in the middle and at the end.
      if (middle > 0) expectSameLocation([...lines.slice(0, middle), markSection(section), ...lines.slice(middle)].join('\n'));
      expectSameLocation(`${text.replace(/\n*$/, '\n\n')}${markSection(section)}`);
    });
  }

  it.each([
    ['a heading-like line inside a column-0 fence is not a split point', '# A\n\ntext\n\n```md\n\n## RALF Lite Loop Report\n\n```\n\n## B\n\nx\n'],
    ['an indented fence makes it parse everything', '# A\n\n- item\n\n  ```\n\n## RALF Lite Loop Report\n\n  ```\n\n## B\n'],
    ['an HTML comment spanning blank lines makes it parse everything', '# A\n\n<!--\n\n## RALF Lite Loop Report\n\n-->\n\n## B\n'],
    ['an HTML comment closed on its own line is a single-line block, not a reason to parse everything', '# A\n\n<!-- note -->\n\n## One\n\nx\n\n## RALF Lite Loop Report\n\nold\n'],
    ['a marked section after a one-line comment', `# A\n\n<!-- note -->\n\n## One\n\nx\n\n${markSection(section)}\n## Two\n`],
    ['a heading right after a list item, with no blank line, is a split point', '# A\n\n## One\n- item\n## Two\n- item\n## RALF Lite Loop Report\n- old\n## Three\n'],
    ['a heading inside an HTML block that interrupted a paragraph is not a split point', '# A\n\ntext\n<div>\n## RALF Lite Loop Report\n</div>\n\n## B\n'],
    ['a heading after a block quote and a table line', '# A\n\n> quote\n## One\n| a | b |\n| - | - |\n## RALF Lite Loop Report\n\nold\n'],
    ['an unclosed fence makes it parse everything', '# A\n\n```\n\n## RALF Lite Loop Report\n'],
    ['the report heading in the middle, Self-Check at the end', '# T\n\n## One\n\na\n\n## RALF Lite Loop Report\n\nold\n\n### Sub\n\n## Two\n\nb\n\n## Self-Check: PASSED\n'],
    ['a setext report heading', '# T\n\n## One\n\nRALF Lite Loop Report\n---------------------\n\nold\n\n## Two\n'],
    ['two Self-Check headings and a footer', '# T\n\n## A\n\nx\n\n## Self-Check: PASSED\n\n## Self-Check (again): PASSED\n\n---\n\n*Phase: 01*\n'],
  ])('%s', (_name, text) => {
    expectSameLocation(text);
  });

  it('starts late in a long document whose marked section (written by an earlier report) is at the end', () => {
    const long = Array.from({ length: 400 }, (_, i) => `## Part ${i}\n\nSome *text* here.\n`).join('\n');
    const start = expectSameLocation(`# Title\n\n${long}\n${markSection(section)}\n## Self-Check: PASSED\n`);
    expect(start).toBeGreaterThan(long.length * 0.9);
  });

  it('starts late in a long list-heavy document without blank lines before its headings (the bench SUMMARY)', () => {
    const lines: string[] = [];
    for (let i = 0; lines.length < 2000; i++) lines.push(i % 50 === 0 ? `## Section ${i}` : `- line ${i} with **bold** and \`code\` | pipes |`);
    const body = lines.join('\n');
    const start = expectSameLocation(`# T\n\n${body}\n\n${markSection(section)}`);
    expect(start).toBeGreaterThan(body.length * 0.9);
  });

  it('starts late in a long document whose section is at the end', () => {
    const long = Array.from({ length: 400 }, (_, i) => `## Part ${i}\n\nSome *text* here.\n`).join('\n');
    const start = expectSameLocation(`# Title\n\n${long}\n## RALF Lite Loop Report\n\nold\n\n## Self-Check: PASSED\n`);
    expect(start).toBeGreaterThan(long.length * 0.9);
  });
});

describe('a section ralf wrote is found from its start marker exactly as from a full parse', () => {
  /** `locate` (what `ralf report` runs) against a parse of the whole body; returns the marker start it could use. */
  function expectFoundAsInFullParse(text: string): number | null {
    const fm = findFrontmatter(text, 'x.md');
    const shift = fm ? fm.end : text.startsWith('\uFEFF') ? 1 : 0;
    const body = text.slice(shift);
    const full = locateSection(text, shift, parseMarkdownBlocks(body), REPORT_HEADING);
    expect(locate(text, 'x.md', REPORT_HEADING)).toEqual(full);
    const marker = body.indexOf(START_MARKER_PREFIX);
    return tailStarts(body, REPORT_HEADING, marker === -1 ? body.length : marker).marker;
  }
  const marked = markSection(section);
  const edited = marked.replace('Loop **enabled**', 'Loop **enabled**, edited by hand');

  for (const file of summaries(join(sharedDir, 'fixtures', 'gsd-real'))) {
    it(file.slice(file.indexOf('gsd-real/') + 9), () => {
      const lines = readFileSync(file, 'utf8').split('\n');
      // Near the top, in the middle, near and at the end (where ralf appends it).
      for (const at of new Set([1, Math.floor(lines.length / 2), lines.length - 2, lines.length])) {
        for (const s of [marked, edited]) expectFoundAsInFullParse([...lines.slice(0, at), s, ...lines.slice(at)].join('\n'));
      }
    });
  }

  it('after a long list without blank lines (the bench SUMMARY), parsing starts at the marker', () => {
    const lines: string[] = [];
    for (let i = 0; lines.length < 2000; i++) lines.push(i % 50 === 0 ? `## Section ${i}` : `- line ${i} with **bold** and \`code\` | pipes |`);
    const text = `# T\n\n${lines.join('\n')}\n${marked}`;
    expect(expectFoundAsInFullParse(text)).toBe(text.indexOf(START_MARKER_PREFIX));
  });

  it.each([
    ['a marker indented in a list item', `# T\n\n- item\n\n  ${marked.replace(/\n/g, '\n  ')}`],
    ['a marker in a fence', `# T\n\n\`\`\`\n${marked}\`\`\`\n`],
    ['a marker in an HTML block', `# T\n\n<div>\n${marked}</div>\n`],
    ['a marker after text on its line', `# T\n\nsee ${marked}`],
    ['a setext heading spanning lines that names the report, before the marker', `# T\n\n## A\n\nRALF Lite\nLoop Report\n---\n\n${marked}`],
    ['the title in prose before the marker', `# T\n\n## A\n\nThe RALF Lite Loop Report is below.\n\n${marked}`],
  ])('no marker start: %s', (_name, text) => {
    expect(expectFoundAsInFullParse(text)).toBeNull();
  });

  it('an edited section is not found from the marker: the earlier start decides where the new one goes', () => {
    const text = `# T\n\n## Self-Check: PASSED\n\n${edited}`;
    expect(expectFoundAsInFullParse(text)).not.toBeNull();
    expect(locate(text, 'x.md', REPORT_HEADING).placement).not.toBe('existing');
  });
});
