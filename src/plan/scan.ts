/**
 * A small scanner for the XML-like structure of GSD plans. Plans are Markdown with
 * `<objective>`, `<tasks>`, `<task>` ... elements, and they are full of tag-like text
 * that is not structure: tags in fenced code and inline code, JSX (`<Card>`), generics
 * (`Vec<Vec<String>>`), `#include <x>`, comments, and prose mentions of `<task>`.
 *
 * The scanner therefore:
 * - skips fenced code blocks (``` / ~~~, any indentation), inline code spans (on one line),
 *   HTML comments, CDATA and declarations;
 * - reads `<name attr="v">`, `</name>` and `<name/>`; anything else starting with `<` is text;
 * - treats `<task>`/`<tasks>` opening tags as structure only when nothing but whitespace or
 *   other tags precedes them on their line (real tasks start a line; prose mentions don't);
 * - matches open and close tags by name with a stack: a close tag pops up to its opener,
 *   implicitly ending stray opens above it; a close tag with no opener is ignored.
 *
 * Elements left unclosed become `unclosed` markers where they were opened and their
 * children move up to the parent, so callers can decide which unclosed tags matter (an
 * unclosed real `<task>` is an error; an unclosed `<String>` is just text).
 */
import { decodeEntities } from './entities.js';
import type { LineIndex } from './lines.js';

export interface ElementNode {
  kind: 'element';
  name: string;
  attrs: Record<string, string>;
  /** All attributes in order, duplicates and case as written. */
  attrList: AttrList;
  /** Offset of the `<` that opens the element. */
  start: number;
  /** Offset just past the opening tag. */
  contentStart: number;
  /** Offset of the closing tag's `<` (equals contentStart for `<x/>`). */
  contentEnd: number;
  /** Offset just past the closing tag. */
  end: number;
  line: number;
  endLine: number;
  /** Only whitespace or other tags precede the opening tag on its line. */
  atLineStart: boolean;
  children: ScanNode[];
}

/** An opening tag that was never closed; its content was treated as its parent's. */
export interface UnclosedNode {
  kind: 'unclosed';
  name: string;
  attrs: Record<string, string>;
  start: number;
  line: number;
  atLineStart: boolean;
}

export type ScanNode = ElementNode | UnclosedNode;

export interface ScanResult {
  root: ElementNode;
  /** Close tags with no matching opener (name and line). */
  strayCloses: Array<{ name: string; line: number }>;
  /** Lines of fence openers that are never closed (read as text, not as code). */
  unclosedFences: number[];
}

/** Names whose opening tag only counts at the start of a line (see the file comment). */
const LINE_START_ONLY = new Set(['task', 'tasks']);

const OPEN_TAG = /<([A-Za-z][A-Za-z0-9_:.-]*)((?:[ \t\n]+[A-Za-z_:@][A-Za-z0-9_:.@-]*(?:[ \t]*=[ \t]*(?:"[^"\n<]*"|'[^'\n<]*'|[^\s"'=<>`]+))?)*)[ \t\n]*(\/?)>/y;
const CLOSE_TAG = /<\/([A-Za-z][A-Za-z0-9_:.-]*)[ \t]*>/y;
const ATTR = /([A-Za-z_:@][A-Za-z0-9_:.@-]*)(?:[ \t]*=[ \t]*(?:"([^"\n<]*)"|'([^'\n<]*)'|([^\s"'=<>`]+)))?/g;
const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})([^\n]*)$/;
/** A run of characters with no meaning to the scanner once a line has text (`\n`, `\`, `` ` ``, `<` do). */
const PLAIN_RUN = /[^\n\\`<]*/y;

/** Every attribute as written (duplicates and case kept), for callers that must see ambiguity. */
export type AttrList = Array<[name: string, value: string]>;

function parseAttrs(raw: string): { attrs: Record<string, string>; list: AttrList } {
  const attrs: Record<string, string> = {};
  const list: AttrList = [];
  if (!raw) return { attrs, list };
  ATTR.lastIndex = 0;
  for (let m = ATTR.exec(raw); m; m = ATTR.exec(raw)) {
    const name = m[1]!;
    const value = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
    list.push([name, value]);
    if (name in attrs) continue; // first value wins, as in HTML
    attrs[name] = value;
  }
  return { attrs, list };
}

/**
 * Finds fenced code blocks' closing lines. Caches failed searches so a file with many
 * unclosed fence openers stays linear.
 */
class FenceFinder {
  /** `${char}${len}` → the smallest offset from which a search already failed. */
  private readonly failedFrom = new Map<string, number>();

  constructor(private readonly text: string, private readonly to: number) {}

  /** Offset just past the closing fence line (including its newline), or -1. */
  findClose(from: number, char: string, len: number): number {
    const key = `${char}${len}`;
    const failed = this.failedFrom.get(key);
    if (failed !== undefined && from >= failed) return -1;
    const { text, to } = this;
    let pos = from;
    while (pos < to) {
      let lineEnd = text.indexOf('\n', pos);
      if (lineEnd === -1 || lineEnd > to) lineEnd = to;
      let i = pos;
      while (i < lineEnd && (text[i] === ' ' || text[i] === '\t')) i++;
      let n = 0;
      while (i + n < lineEnd && text[i + n] === char) n++;
      if (n >= len && text.slice(i + n, lineEnd).trim() === '') return lineEnd < to ? lineEnd + 1 : lineEnd;
      pos = lineEnd + 1;
    }
    this.failedFrom.set(key, failed === undefined ? from : Math.min(failed, from));
    return -1;
  }
}

/**
 * Scans `text[from, to)` (the body after any frontmatter) into an element tree.
 * Offsets and lines refer to the whole `text`.
 */
export function scanElements(text: string, lines: LineIndex, from = 0, to = text.length): ScanResult {
  const root: ElementNode = {
    kind: 'element',
    name: '#document',
    attrs: {},
    attrList: [],
    start: from,
    contentStart: from,
    contentEnd: to,
    end: to,
    line: lines.lineAt(from),
    endLine: lines.lineAt(to),
    atLineStart: true,
    children: [],
  };
  const stack: ElementNode[] = [root];
  /** How many elements of each name are open on the stack (makes stray closes O(1)). */
  const openCount = new Map<string, number>();
  const strayCloses: ScanResult['strayCloses'] = [];
  const unclosedFences: number[] = [];
  const fences = new FenceFinder(text, to);

  /**
   * Ends every element above `stack[k]` as unclosed, in one pass: each becomes a marker in
   * `stack[k]` followed by its children. (An element's children all closed before the next
   * element up the stack opened, so this keeps document order, and each child moves once.)
   */
  const discardAbove = (k: number): void => {
    const target = stack[k]!;
    for (let j = k + 1; j < stack.length; j++) {
      const node = stack[j]!;
      openCount.set(node.name, (openCount.get(node.name) ?? 1) - 1);
      target.children.push({ kind: 'unclosed', name: node.name, attrs: node.attrs, start: node.start, line: node.line, atLineStart: node.atLineStart });
      for (const child of node.children) target.children.push(child);
    }
    stack.length = k + 1;
  };

  let i = from;
  let atLineStart = true; // i is at the first character of a line
  let onlyTags = true; // only whitespace/tags so far on the current line

  while (i < to) {
    if (atLineStart) {
      atLineStart = false;
      onlyTags = true;
      // Fenced code: the whole block is text.
      const c0 = text[i];
      if (c0 === ' ' || c0 === '\t' || c0 === '`' || c0 === '~') {
        let lineEnd = text.indexOf('\n', i);
        if (lineEnd === -1 || lineEnd > to) lineEnd = to;
        const m = FENCE_OPEN.exec(text.slice(i, lineEnd));
        if (m && (m[1]![0] === '~' || !m[2]!.includes('`'))) {
          const close = lineEnd < to ? fences.findClose(lineEnd + 1, m[1]![0]!, m[1]!.length) : -1;
          if (close !== -1) {
            i = close;
            atLineStart = true;
            continue;
          }
          unclosedFences.push(lines.lineAt(i));
        }
      }
    }
    const c = text.charCodeAt(i);
    if (c === 10 /* \n */) {
      i++;
      atLineStart = true;
      continue;
    }
    if (c === 32 || c === 9) {
      i++;
      continue;
    }
    if (c === 92 /* \ */) {
      onlyTags = false;
      i += text.charCodeAt(i + 1) === 10 ? 1 : 2;
      continue;
    }
    if (c === 96 /* ` */) {
      onlyTags = false;
      let n = 1;
      while (text.charCodeAt(i + n) === 96) n++;
      let lineEnd = text.indexOf('\n', i);
      if (lineEnd === -1 || lineEnd > to) lineEnd = to;
      let j = i + n;
      let closed = -1;
      while (j < lineEnd) {
        const b = text.indexOf('`', j);
        if (b === -1 || b >= lineEnd) break;
        let k = 1;
        while (b + k < lineEnd && text.charCodeAt(b + k) === 96) k++;
        if (k === n) {
          closed = b + k;
          break;
        }
        j = b + k;
      }
      i = closed === -1 ? i + n : closed;
      continue;
    }
    if (c !== 60 /* < */) {
      // Plain text up to the next character that can matter: skipped by one regex search, not
      // a step per character (a 150 KB plan is mostly prose the loop above would walk cold).
      onlyTags = false;
      PLAIN_RUN.lastIndex = i + 1;
      PLAIN_RUN.test(text);
      i = Math.min(PLAIN_RUN.lastIndex, to);
      continue;
    }

    // '<': comment, CDATA, declaration, close tag, open tag, or just text.
    if (text.startsWith('<!--', i)) {
      const endIdx = text.indexOf('-->', i + 4);
      if (endIdx !== -1 && endIdx + 3 <= to) {
        i = endIdx + 3;
        continue;
      }
      onlyTags = false;
      i++;
      continue;
    }
    if (text.startsWith('<![CDATA[', i)) {
      const endIdx = text.indexOf(']]>', i + 9);
      if (endIdx !== -1 && endIdx + 3 <= to) {
        onlyTags = false;
        i = endIdx + 3;
        continue;
      }
      onlyTags = false;
      i++;
      continue;
    }
    const next = text.charCodeAt(i + 1);
    if (next === 33 /* ! */ || next === 63 /* ? */) {
      onlyTags = false;
      i++;
      continue;
    }
    if (next === 47 /* / */) {
      CLOSE_TAG.lastIndex = i;
      const m = CLOSE_TAG.exec(text);
      if (m && CLOSE_TAG.lastIndex <= to) {
        const name = m[1]!;
        const end = CLOSE_TAG.lastIndex;
        if ((openCount.get(name) ?? 0) > 0) {
          let k = stack.length - 1;
          while (stack[k]!.name !== name) k--;
          discardAbove(k);
          const node = stack.pop()!;
          openCount.set(name, openCount.get(name)! - 1);
          node.contentEnd = i;
          node.end = end;
          node.endLine = lines.lineAt(i);
          stack[stack.length - 1]!.children.push(node);
        } else {
          strayCloses.push({ name, line: lines.lineAt(i) });
        }
        i = end;
        continue;
      }
      onlyTags = false;
      i++;
      continue;
    }
    OPEN_TAG.lastIndex = i;
    const m = OPEN_TAG.exec(text);
    if (m && OPEN_TAG.lastIndex <= to) {
      const name = m[1]!;
      const end = OPEN_TAG.lastIndex;
      if (LINE_START_ONLY.has(name) && !onlyTags) {
        // A mention in prose (`... match <task type="..."> elements`), not structure.
        i = end;
        continue;
      }
      const line = lines.lineAt(i);
      const parsedAttrs = parseAttrs(m[2] ?? '');
      const node: ElementNode = {
        kind: 'element',
        name,
        attrs: parsedAttrs.attrs,
        attrList: parsedAttrs.list,
        start: i,
        contentStart: end,
        contentEnd: end,
        end,
        line,
        endLine: line,
        atLineStart: onlyTags,
        children: [],
      };
      if (m[3] === '/') {
        stack[stack.length - 1]!.children.push(node);
      } else {
        stack.push(node);
        openCount.set(name, (openCount.get(name) ?? 0) + 1);
      }
      // A tag spanning lines (attributes on several lines) ends mid-line.
      i = end;
      continue;
    }
    onlyTags = false;
    i++;
  }
  discardAbove(0);
  return { root, strayCloses, unclosedFences };
}

/** The element's raw text between its tags (entities not yet decoded). */
export function rawContent(text: string, node: ElementNode): string {
  return text.slice(node.contentStart, node.contentEnd);
}

/** Direct child elements with a given name. */
export function childElements(node: ElementNode, name?: string): ElementNode[] {
  const out: ElementNode[] = [];
  for (const c of node.children) if (c.kind === 'element' && (name === undefined || c.name === name)) out.push(c);
  return out;
}
