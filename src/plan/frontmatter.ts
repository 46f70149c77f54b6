/**
 * Finds and parses a plan's metadata block. Real plans put it in one of three places:
 * YAML frontmatter at byte 0 (the template), a `---` YAML block right after the `# Plan`
 * H1 (gray-matter sees nothing there), or a fenced ```yaml block under a `## Frontmatter`
 * or `## Metadata` heading. Parsing uses gray-matter (js-yaml 3, like GSD's own tools);
 * duplicate keys, which js-yaml rejects and real plans contain, are retried with a
 * duplicate-tolerant load that keeps the last value, with a warning.
 */
import matter from 'gray-matter';
import { RalfError } from '../errors.js';
import type { Plan } from './model.js';
import type { LineIndex } from './lines.js';

export interface FrontmatterBlock {
  source: Plan['frontmatter_source'];
  data: Record<string, unknown>;
  /** The YAML text and the file line of its first line (to locate keys for messages). */
  yaml: string;
  yamlLine: number;
  /** Where the body (the part scanned for elements) starts. */
  bodyStart: number;
  warnings: string[];
}

interface YamlException extends Error {
  reason?: string;
  mark?: { line: number; column: number };
}

type YamlEngine = { parse(text: string, options?: { json?: boolean }): unknown };
const yamlEngine = (): YamlEngine => (matter as unknown as { engines: { yaml: YamlEngine } }).engines.yaml;

const isDuplicateKeyError = (err: YamlException) => /duplicated mapping key/.test(err.reason ?? err.message);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/**
 * Parses YAML. `firstLine` is the file line of the YAML's first line. Returns the data or
 * the exception (with a file line) so each caller decides whether it is fatal.
 */
function loadYaml(yaml: string, firstLine: number, viaMatter: boolean): { data: unknown; warnings: string[] } | { error: YamlException; line: number; column: number } {
  const engine = yamlEngine();
  const run = (json: boolean): unknown => {
    const parse = (s: string) => engine.parse(s, json ? { json: true } : undefined) as object;
    if (!viaMatter) return parse(yaml);
    // gray-matter is given an options object on purpose: without one it caches by content,
    // including files whose YAML failed to parse (a second read would then "succeed").
    return matter(`---\n${yaml}\n---\n`, { engines: { yaml: parse } }).data;
  };
  const at = (err: YamlException) => {
    // The YAML string gray-matter hands to the engine starts with the opener's newline.
    const line = (err.mark?.line ?? 0) + firstLine - (viaMatter ? 1 : 0);
    return { line, column: (err.mark?.column ?? 0) + 1 };
  };
  try {
    const data = run(false);
    // YAML aliases are shared references: a few lines can stand for billions of nodes
    // ("billion laughs"), which every later walk of the data would expand.
    if (expandedSize(data) > MAX_EXPANDED_NODES) {
      const reason = `the YAML expands to more than ${MAX_EXPANDED_NODES} values through aliases (*name); refused`;
      return { error: { name: 'YAMLException', reason, message: reason, mark: { line: 0, column: 0 } } as unknown as YamlException, line: firstLine, column: 1 };
    }
    return { data, warnings: [] };
  } catch (error) {
    const err = error as YamlException;
    if (err.name !== 'YAMLException') throw err;
    if (!isDuplicateKeyError(err)) return { error: err, ...at(err) };
    const { line } = at(err);
    try {
      const data = run(true);
      return { data, warnings: [`line ${line}: duplicate frontmatter key (js-yaml rejects it); the last value of each duplicated key is kept`] };
    } catch (again) {
      const err2 = again as YamlException;
      if (err2.name !== 'YAMLException') throw err2;
      return { error: err2, ...at(err2) };
    }
  }
}

const MAX_EXPANDED_NODES = 100_000;

/** How many values `data` has once every alias is expanded (memoised per shared object; a cycle counts as too many). */
function expandedSize(data: unknown, memo = new Map<object, number>()): number {
  if (typeof data !== 'object' || data === null) return 1;
  const known = memo.get(data);
  if (known !== undefined) return known;
  memo.set(data, Infinity); // a cycle back to here is unbounded
  let n = 1;
  for (const v of Array.isArray(data) ? data : Object.values(data)) {
    n += expandedSize(v, memo);
    if (n > MAX_EXPANDED_NODES) break;
  }
  memo.set(data, n);
  return n;
}

const DELIMITER = /^---[ \t]*$/;
const KNOWN_KEYS = ['phase', 'plan', 'type', 'wave', 'depends_on', 'files_modified', 'autonomous', 'requirements', 'must_haves', 'gap_closure'];

function yamlError(path: string, where: string, r: { error: YamlException; line: number; column: number }): RalfError {
  const reason = r.error.reason ?? r.error.message.split('\n')[0] ?? 'invalid YAML';
  return new RalfError('plan_invalid', `${path}:${r.line}: invalid YAML in the ${where}: ${reason}`, {
    problems: [
      {
        file: path,
        line: r.line,
        column: r.column,
        message: `invalid YAML in the ${where}: ${reason}`,
        hint: 'Fix the YAML (indent with spaces, quote values that contain ": " or start with @, [ or {).',
      },
    ],
  });
}

function notMapping(path: string, line: number, value: unknown): RalfError {
  const received = Array.isArray(value) ? 'a list' : typeof value;
  return new RalfError('plan_invalid', `${path}:${line}: the frontmatter must be a YAML mapping of keys (phase, plan, type, ...)`, {
    problems: [{ file: path, line, message: 'the frontmatter must be a YAML mapping', expected: 'key: value pairs', received }],
  });
}

/**
 * Locates and parses the metadata block of a (newline-normalized) plan. Invalid YAML at
 * byte 0 is fatal (the author clearly meant frontmatter); a `---` block after the H1 that
 * doesn't parse is read as Markdown (it may be a horizontal rule) with a warning.
 */
export function readFrontmatter(text: string, lines: LineIndex, path: string): FrontmatterBlock {
  const none: FrontmatterBlock = { source: 'none', data: {}, yaml: '', yamlLine: 1, bodyStart: 0, warnings: [] };

  // 1. The template: `---` at byte 0.
  if (/^---[ \t]*(?:yaml|yml)?[ \t]*\n/.test(text) || text === '---') {
    const close = findClosingDelimiter(text, lines, 2);
    if (close === null) {
      throw new RalfError('plan_invalid', `${path}:1: the frontmatter opened on line 1 is never closed with a "---" line`, {
        problems: [{ file: path, line: 1, message: 'frontmatter opened with "---" but never closed', hint: 'Add a line containing only "---" after the frontmatter.' }],
      });
    }
    const yaml = text.slice(lines.lineStart(2), Math.max(lines.lineStart(2), lines.lineStart(close) - 1));
    const r = loadYaml(close === 2 ? '' : yaml, 2, true);
    if ('error' in r) throw yamlError(path, 'frontmatter', r);
    const data = r.data ?? {};
    if (!isRecord(data)) throw notMapping(path, 2, data);
    return { source: 'yaml', data, yaml, yamlLine: 2, bodyStart: lines.lineEnd(close) + 1, warnings: r.warnings };
  }

  // 2. A `---` block right after the `# Plan ...` H1 (only blank lines between), or after
  //    leading blank lines (an editor's stray newline before the frontmatter).
  const afterHeading = /^(?:[ \t]*\n)*(#[ \t][^\n]*\n(?:[ \t]*\n)*)?---[ \t]*\n/.exec(text);
  if (afterHeading) {
    const heading = afterHeading[1] !== undefined;
    const openLine = lines.lineAt(afterHeading[0].length - 1);
    const close = findClosingDelimiter(text, lines, openLine + 1);
    if (close !== null && close > openLine + 1) {
      const yaml = text.slice(lines.lineStart(openLine + 1), lines.lineStart(close) - 1);
      const r = loadYaml(yaml, openLine + 1, false);
      if (!('error' in r) && isRecord(r.data) && KNOWN_KEYS.some((k) => k in (r.data as object))) {
        const warnings = heading ? r.warnings : [`line ${openLine}: the frontmatter starts after blank lines, not at the first byte`, ...r.warnings];
        return { source: heading ? 'yaml-after-heading' : 'yaml', data: r.data, yaml, yamlLine: openLine + 1, bodyStart: lines.lineEnd(close) + 1, warnings };
      }
      if ('error' in r && /^[ \t]*[A-Za-z_][\w-]*:/m.test(yaml)) {
        none.warnings.push(`line ${r.line}: the "---" block after the heading looks like frontmatter but is not valid YAML (${r.error.reason ?? 'parse error'}); read as Markdown`);
      }
    }
  }

  // 3. A fenced yaml block under a `## Frontmatter` / `## Metadata` heading.
  const fenced = findFencedMetadata(text, lines);
  if (fenced) {
    const r = loadYaml(fenced.yaml, fenced.line, false);
    if ('error' in r) {
      none.warnings.push(`line ${r.line}: the yaml block under "${fenced.heading}" is not valid YAML (${r.error.reason ?? 'parse error'}); metadata ignored`);
      return none;
    }
    if (isRecord(r.data)) return { source: 'fenced-yaml', data: r.data, yaml: fenced.yaml, yamlLine: fenced.line, bodyStart: 0, warnings: r.warnings };
  }
  return none;
}

/** The first line at or after `fromLine` that is exactly `---`. */
function findClosingDelimiter(text: string, lines: LineIndex, fromLine: number): number | null {
  for (let line = fromLine; line <= lines.lineCount; line++) {
    if (DELIMITER.test(text.slice(lines.lineStart(line), lines.lineEnd(line)))) return line;
  }
  return null;
}

function findFencedMetadata(text: string, lines: LineIndex): { yaml: string; line: number; heading: string } | null {
  let fence: string | null = null;
  for (let line = 1; line <= lines.lineCount; line++) {
    const s = text.slice(lines.lineStart(line), lines.lineEnd(line));
    const f = /^[ \t]{0,3}(`{3,}|~{3,})/.exec(s);
    if (fence !== null) {
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length && s.trim() === f[1]) fence = null;
      continue;
    }
    if (f) {
      fence = f[1]!;
      continue;
    }
    const h = /^#{1,6}[ \t]+(front[ -]?matter|metadata)[ \t]*#*[ \t]*$/i.exec(s);
    if (!h) continue;
    let next = line + 1;
    while (next <= lines.lineCount && text.slice(lines.lineStart(next), lines.lineEnd(next)).trim() === '') next++;
    const open = /^[ \t]{0,3}(`{3,}|~{3,})[ \t]*(yaml|yml)[ \t]*$/i.exec(next <= lines.lineCount ? text.slice(lines.lineStart(next), lines.lineEnd(next)) : '');
    if (!open) continue;
    const marker = open[1]!;
    for (let end = next + 1; end <= lines.lineCount; end++) {
      const e = text.slice(lines.lineStart(end), lines.lineEnd(end)).trim();
      if (e.startsWith(marker[0]!.repeat(marker.length)) && /^(`{3,}|~{3,})$/.test(e)) {
        const yaml = end === next + 1 ? '' : text.slice(lines.lineStart(next + 1), lines.lineStart(end) - 1);
        return { yaml, line: next + 1, heading: s.trim() };
      }
    }
    return null;
  }
  return null;
}

const rowsCache = new WeakMap<FrontmatterBlock, string[]>();

function rowsOf(block: FrontmatterBlock): string[] {
  let rows = rowsCache.get(block);
  if (!rows) {
    rows = block.yaml.split('\n');
    rowsCache.set(block, rows);
  }
  return rows;
}

function keyRow(rows: string[], key: string): number {
  return rows.findIndex((r) => {
    const t = r.trimStart();
    return t.startsWith(key) && /^\s*:/.test(t.slice(key.length));
  });
}

/**
 * File lines of a key and of its entries, in order (`artifacts` → each artifact's path):
 * one pass over the YAML whatever the number of entries. Entries not found get the key's line.
 */
export function linesOfEntries(block: FrontmatterBlock, key: string, needles: string[]): { key: number | undefined; entries: Array<number | undefined> } {
  const rows = rowsOf(block);
  const start = keyRow(rows, key);
  if (start === -1) return { key: undefined, entries: needles.map(() => undefined) };
  const entries: number[] = [];
  let cursor = start;
  for (const needle of needles) {
    let i = cursor;
    while (i < rows.length && !rows[i]!.includes(needle)) i++;
    if (i < rows.length) {
      entries.push(block.yamlLine + i);
      cursor = i;
    } else entries.push(block.yamlLine + start);
  }
  return { key: block.yamlLine + start, entries };
}

/** The file line where a key first appears in the YAML. */
export function lineOfKey(block: FrontmatterBlock, key: string): number | undefined {
  return linesOfEntries(block, key, []).key;
}
