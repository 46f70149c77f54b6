/**
 * Where the report section is (or goes) in a parsed SUMMARY body. A section is a heading
 * up to the next heading of the same or higher rank (mdast-util-heading-range's rule),
 * looked up among the document's top-level nodes only, so headings in code fences,
 * lists or block quotes never count. Offsets are into the whole file (UTF-16 indices).
 */
import type { Heading, Nodes, Root, RootContent } from 'mdast';

export type Placement = 'existing' | 'before-self-check' | 'before-footer' | 'end';

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

  const found = nodes.findIndex((n) => isReportHeading(n, title));
  if (found !== -1) {
    const heading = nodes[found] as Heading;
    let stop = nodes.findIndex((n, i) => i > found && n.type === 'heading' && n.depth <= heading.depth);
    if (stop === -1) {
      // Runs to the end of the file: a trailing GSD footer is the document's, not the section's.
      const footer = footerIndex(nodes);
      stop = footer > found ? footer : nodes.length;
    }
    const last = nodes[stop - 1]!;
    const duplicates = nodes.filter((n, i) => i > found && isReportHeading(n, title)).length;
    return { placement: 'existing', start: startOf(heading), end: endOf(last), before: null, duplicates, depth: heading.depth };
  }

  // A trailing Self-Check section stays last: the executor appends it after everything else.
  // Several Self-Check headings in a row at the end (wayland 20A-04 has such pairs) are one block.
  const ranked = nodes.filter((n): n is Heading => n.type === 'heading' && n.depth <= 2);
  let first = ranked.length - 1;
  if (first >= 0 && isSelfCheckHeading(ranked[first]!)) {
    while (first > 0 && isSelfCheckHeading(ranked[first - 1]!)) first--;
    const at = startOf(ranked[first]!);
    return { placement: 'before-self-check', start: at, end: at, before: lineAt(text, at), duplicates: 0, depth: null };
  }

  const footer = footerIndex(nodes);
  if (footer !== -1) {
    const at = startOf(nodes[footer]!);
    return { placement: 'before-footer', start: at, end: at, before: lineAt(text, at), duplicates: 0, depth: null };
  }
  return { placement: 'end', start: text.length, end: text.length, before: null, duplicates: 0, depth: null };
}
