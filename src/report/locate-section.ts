/**
 * Where the report section is (or goes) in a parsed SUMMARY body. Only a section ralf wrote
 * is ever replaced: a start marker (an HTML comment carrying a hash of what ralf wrote),
 * directly followed by the exact `## RALF Lite Loop Report` h2, up to its own end marker,
 * and only while the text between still has that hash. Anything else (an h1 or setext
 * heading with that title, a renamed heading, an older report without markers, a report the
 * user edited) is left exactly as it is, and a new section is placed as for a file without
 * one. Looked up among the document's top-level nodes only, so markers and headings in code
 * fences, lists or block quotes never count. Offsets are into the whole file (UTF-16 indices).
 */
import type { Heading, Html, Nodes, Root, RootContent } from 'mdast';
import { createHash } from '../lazy-crypto.js';

export type Placement = 'existing' | 'before-self-check' | 'before-footer' | 'end';

/** `<!-- ralf-lite:loop-report:start sha256:<12 hex> … -->`: what `markSection` writes before the heading. */
const START = /^<!-- ralf-lite:loop-report:start sha256:([0-9a-f]{12})\b[^\n]*-->$/;
export const END_MARKER = '<!-- ralf-lite:loop-report:end -->';
/** A cheap test for "may hold a marked section" (the full check needs the parse). */
export const START_MARKER_PREFIX = '<!-- ralf-lite:loop-report:start';

/** The hash a start marker carries: of the section from its heading to its last line (LF, no trailing blank lines). */
export function sectionHash(section: string): string {
  return createHash('sha256').update(section.replace(/\r\n/g, '\n').replace(/\s+$/, ''), 'utf8').digest('hex').slice(0, 12);
}

/** The section as ralf writes it (LF): start marker, the section (starting with its heading), a blank line, end marker. */
export function markSection(section: string): string {
  const body = section.replace(/\s+$/, '');
  return `${START_MARKER_PREFIX} sha256:${sectionHash(body)} (written by ralf report; replaced on every run: keep your own notes outside the markers) -->\n${body}\n\n${END_MARKER}\n`;
}

/** A report-like heading or block ralf left alone, for a warning. */
export interface LeftAlone {
  /** Offset in the whole text. */
  offset: number;
  why: 'edited' | 'unmarked' | 'other-heading' | 'no-end-marker';
}

export interface SectionLocation {
  placement: Placement;
  /** existing: where the section starts/ends (end: just past its last node). insert: both are the insertion offset. */
  start: number;
  end: number;
  /** The heading line the section is inserted before (or the footer's rule), for messages. */
  before: string | null;
  /** Further sections with the same heading (only the first is replaced). */
  duplicates: number;
  /** The existing section's heading depth (kept when it is replaced). */
  depth: number | null;
  /** Report-like sections that are not ralf's own (or were edited): never touched. */
  leftAlone: LeftAlone[];
}

function plainText(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node) return (node.children as Nodes[]).map(plainText).join('');
  return '';
}

// Headings come from a block-only parse (inline syntax left raw): drop emphasis/code marks.
const normalized = (s: string) => s.replace(/[*_`~]/g, '').replace(/\s+/g, ' ').trim().toLowerCase();

export function isReportHeading(node: RootContent, title: string): node is Heading {
  return node.type === 'heading' && normalized(plainText(node)).includes(normalized(title));
}

/** `## RALF Lite Loop Report` exactly: an ATX h2 (not setext, not h1) whose text is the title, nothing more. */
function isExactReportHeading(text: string, shift: number, node: RootContent, title: string): boolean {
  if (node.type !== 'heading' || node.depth !== 2) return false;
  const start = node.position!.start.offset! + shift;
  const line = text.slice(start, node.position!.end.offset! + shift).replace(/\r$/, '');
  return line.replace(/[ \t]+#+[ \t]*$/, '').replace(/[ \t]+$/, '') === `## ${title}`;
}

/** `## Self-Check: PASSED`, `## Self-Check (§12): PASSED`, `## Self Check`. */
export function isSelfCheckHeading(node: RootContent): node is Heading {
  return node.type === 'heading' && /^self[-\s]?check\b/i.test(plainText(node).replace(/[*_`~]/g, '').trim());
}

/**
 * GSD's closing `---` + `*Phase: ...*` / `*Completed: ...*` lines: paragraphs whose every
 * line is one emphasised span (`*x*` or `_x_`, not strong) after a rule. The paragraph's text
 * is raw here (block-only parse), so the spans are recognised on the text.
 */
const emphasisOnlyLine = /^([*_])(?!\1)\S(?:.*\S)?(?<![*_])\1$/;
function isFooterParagraph(node: RootContent): boolean {
  if (node.type !== 'paragraph') return false;
  const lines = plainText(node)
    .split('\n')
    .map((l) => l.trim().replace(/\\$/, '').trim())
    .filter((l) => l !== '');
  return lines.length > 0 && lines.every((l) => emphasisOnlyLine.test(l));
}

/** Index of the thematic break that starts a trailing footer, or -1. */
export function footerIndex(nodes: RootContent[]): number {
  let i = nodes.length - 1;
  let paragraphs = 0;
  while (i >= 0 && isFooterParagraph(nodes[i]!)) {
    i--;
    paragraphs++;
  }
  return paragraphs > 0 && i >= 0 && nodes[i]!.type === 'thematicBreak' ? i : -1;
}

/** Back from a node's start to its line's start when only indentation lies between. */
function lineStart(text: string, offset: number): number {
  let i = offset;
  while (i > 0 && (text[i - 1] === ' ' || text[i - 1] === '\t')) i--;
  return i === 0 || text[i - 1] === '\n' ? i : offset;
}

function lineAt(text: string, offset: number): string {
  const nl = text.indexOf('\n', offset);
  return text.slice(offset, nl === -1 ? text.length : nl).replace(/\r$/, '').trim();
}

/**
 * @param text the whole file
 * @param shift offset of the parsed body in `text` (past BOM and frontmatter)
 * @param root the parsed body
 */
export function locateSection(text: string, shift: number, root: Root, title: string): SectionLocation {
  const nodes = root.children.filter((n) => n.position?.start.offset !== undefined && n.position.end.offset !== undefined);
  const startOf = (n: RootContent) => lineStart(text, n.position!.start.offset! + shift);
  const endOf = (n: RootContent) => n.position!.end.offset! + shift;

  const own: Array<{ start: number; end: number }> = [];
  const leftAlone: LeftAlone[] = [];
  const claimed = new Set<number>();
  for (let i = 0; i < nodes.length; i++) {
    const marker = nodes[i]!;
    const m = marker.type === 'html' ? START.exec((marker as Html).value.trim()) : null;
    if (!m) continue;
    const heading = nodes[i + 1];
    if (!heading || !isExactReportHeading(text, shift, heading, title)) continue;
    claimed.add(i + 1);
    const endAt = nodes.findIndex((n, k) => k > i + 1 && n.type === 'html' && ((n as Html).value.trim() === END_MARKER || START.test((n as Html).value.trim())));
    if (endAt === -1 || (nodes[endAt] as Html).value.trim() !== END_MARKER) {
      leftAlone.push({ offset: startOf(heading), why: 'no-end-marker' });
      continue;
    }
    const inner = text.slice(startOf(heading), startOf(nodes[endAt]!));
    if (sectionHash(inner) !== m[1]) {
      leftAlone.push({ offset: startOf(heading), why: 'edited' });
      continue;
    }
    own.push({ start: startOf(marker), end: endOf(nodes[endAt]!) });
    i = endAt;
  }
  nodes.forEach((n, i) => {
    if (claimed.has(i) || !isReportHeading(n, title)) return;
    leftAlone.push({ offset: startOf(n), why: isExactReportHeading(text, shift, n, title) ? 'unmarked' : 'other-heading' });
  });
  leftAlone.sort((x, y) => x.offset - y.offset);
  if (own.length > 0) {
    return { placement: 'existing', start: own[0]!.start, end: own[0]!.end, before: null, duplicates: own.length - 1, depth: 2, leftAlone };
  }

  // A trailing Self-Check section stays last: the executor appends it after everything else.
  // Several Self-Check headings in a row at the end (wayland 20A-04 has such pairs) are one block.
  const ranked = nodes.filter((n): n is Heading => n.type === 'heading' && n.depth <= 2);
  let first = ranked.length - 1;
  if (first >= 0 && isSelfCheckHeading(ranked[first]!)) {
    while (first > 0 && isSelfCheckHeading(ranked[first - 1]!)) first--;
    const at = startOf(ranked[first]!);
    return { placement: 'before-self-check', start: at, end: at, before: lineAt(text, at), duplicates: 0, depth: null, leftAlone };
  }

  const footer = footerIndex(nodes);
  if (footer !== -1) {
    const at = startOf(nodes[footer]!);
    return { placement: 'before-footer', start: at, end: at, before: lineAt(text, at), duplicates: 0, depth: null, leftAlone };
  }
  return { placement: 'end', start: text.length, end: text.length, before: null, duplicates: 0, depth: null, leftAlone };
}
