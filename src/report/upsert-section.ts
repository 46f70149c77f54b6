/**
 * Puts the report section into a SUMMARY's text by splicing the original string at node
 * offsets: every character outside the section stays exactly as it was (frontmatter,
 * tables, emphasis markers, line endings, the trailing newline or its absence).
 */
import { RalfError, lineColumnAt, type Problem } from '../errors.js';
import { checkFrontmatterYaml, findFrontmatter } from './frontmatter.js';
import { locateSection, markSection, START_MARKER_PREFIX, type LeftAlone, type Placement } from './locate-section.js';
import { parseMarkdownBlocks } from './markdown.js';
import { checkMarkdownLimits } from './markdown-limits.js';
import { tailStarts } from './tail-start.js';

export interface UpsertResult {
  text: string;
  action: 'replaced' | 'appended' | 'unchanged';
  placement: Placement;
  /** The heading line the section was inserted before, when it was inserted. */
  before: string | null;
  /** 1-based line of the section's heading in the new text (its start marker is on the line before). */
  line: number;
  /** Where the section is in the new text: from its heading to the end of its last line. */
  start: number;
  end: number;
  /** The part of the original the section replaced (empty, start === end, when inserted). */
  replaced: { start: number; end: number };
  warnings: Problem[];
}

/** The document's line ending: CRLF when most lines end in CRLF. */
export function detectEol(text: string): '\n' | '\r\n' {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text[i - 1] === '\r') crlf++;
    else lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

function bodyStart(text: string, file: string, warnings: Problem[] | null): number {
  const fm = findFrontmatter(text, file);
  if (fm && warnings) warnings.push(...checkFrontmatterYaml(fm, file));
  return fm ? fm.end : text.startsWith('\uFEFF') ? 1 : 0;
}

/**
 * Where the section is (or goes) in a SUMMARY's text: the body after any frontmatter, parsed from
 * a safe start (see tail-start.ts). `warnings` collects the frontmatter's, when given.
 */
export function locate(text: string, file: string, title: string, warnings: Problem[] | null = null) {
  const shift = bodyStart(text, file, warnings);
  const body = text.slice(shift);
  // A marked section's start marker sits on the line before its heading: the parsed tail
  // starts at a safe boundary before the first marker.
  const marker = body.indexOf(START_MARKER_PREFIX);
  const { start, marker: fromMarker } = tailStarts(body, title, marker === -1 ? body.length : marker);
  checkMarkdownLimits(text, shift + start, file);
  // The section ralf wrote is found from its own marker's line, without parsing the text before
  // it (micromark is slow on long lists); any other placement is decided from `start`.
  if (fromMarker !== null) {
    const found = locateSection(text, shift + fromMarker, parseMarkdownBlocks(body.slice(fromMarker)), title);
    if (found.placement === 'existing') return found;
  }
  return locateSection(text, shift + start, parseMarkdownBlocks(body.slice(start)), title);
}

const endsWithBlankLine = (s: string) => /\n[ \t]*\r?\n$/.test(s) || /^\s*$/.test(s);

/**
 * @param original the SUMMARY's text
 * @param section the section's Markdown (LF line endings, ending in one newline), starting with its heading
 * @param title the heading text that identifies the section
 */
export function upsertSection(original: string, section: string, file: string, title: string): UpsertResult {
  const warnings: Problem[] = [];
  const loc = locate(original, file, title, warnings);
  const eol = detectEol(original);
  const body = markSection(section).replace(/\n+$/, '').replace(/\n/g, eol);
  for (const left of loc.leftAlone) warnings.push(leftAloneWarning(original, file, title, left));

  let text: string;
  let start: number;
  if (loc.placement === 'existing') {
    text = original.slice(0, loc.start) + body + original.slice(loc.end);
    start = loc.start;
    if (loc.duplicates > 0) {
      warnings.push({
        file,
        message: `${loc.duplicates + 1} sections are headed "${title}"; only the first was updated`,
        hint: 'delete the extra sections',
      });
    }
  } else if (loc.placement === 'end') {
    const lead = original.length === 0 || endsWithBlankLine(original) ? '' : original.endsWith('\n') ? eol : eol + eol;
    // A file without a final newline keeps lacking one.
    const trail = original.length === 0 || original.endsWith('\n') ? eol : '';
    text = original + lead + body + trail;
    start = original.length + lead.length;
  } else {
    const before = original.slice(0, loc.start);
    const lead = endsWithBlankLine(before) ? '' : eol;
    text = before + lead + body + eol + eol + original.slice(loc.start);
    start = before.length + lead.length;
  }

  // The new text must parse back with the section exactly where it was put; otherwise
  // (e.g. an unclosed code fence or HTML block before it) a second run would not find it.
  // Unchanged text (the section was there as written) reads back as it was just read.
  const check = text === original ? loc : locate(text, file, title, null);
  if (check.placement !== 'existing' || check.start !== start || text.slice(check.start, check.end) !== body) {
    const where = lineColumnAt(original, loc.start).line;
    throw new RalfError('summary_unsafe', `${file}: the report section cannot be placed safely at line ${where}; the file was not changed`, {
      problems: [
        {
          file,
          line: where,
          message: 'after inserting it, the section would not read back as its own section (an unclosed code fence or HTML block before it?)',
          hint: 'close the code fence or HTML block before the end of the file, or add a "## RALF Lite Loop Report" heading where the report should go',
        },
      ],
    });
  }
  return {
    text,
    action: text === original ? 'unchanged' : loc.placement === 'existing' ? 'replaced' : 'appended',
    placement: loc.placement,
    before: loc.before,
    // The heading's line: the start marker is the line before it.
    line: lineColumnAt(text, start).line + 1,
    start,
    end: start + body.length,
    replaced: { start: loc.start, end: loc.end },
    warnings,
  };
}

function leftAloneWarning(text: string, file: string, title: string, left: LeftAlone): Problem {
  const line = lineColumnAt(text, left.offset).line;
  const message = {
    edited: `the "${title}" section here was edited after ralf wrote it; it is left as it is and a new section is written`,
    unmarked: `the "${title}" section here has no ralf markers (an older ralf-lite, or written by hand); it is left as it is and a new section is written`,
    'other-heading': `a heading mentioning "${title}" here is not ralf's section; it is left as it is`,
    'no-end-marker': `the "${title}" section here lost its end marker; it is left as it is and a new section is written`,
  }[left.why];
  const hint = left.why === 'other-heading' ? undefined : 'delete the old section once you have kept what you want from it; ralf replaces only the section between its own markers';
  return { file, line, message, ...(hint ? { hint } : {}) };
}
