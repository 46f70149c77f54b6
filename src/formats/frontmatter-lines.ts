/**
 * Line-level edits of a Markdown file's YAML frontmatter: set or remove top-level scalar keys
 * while every other line (and the whole body) keeps its bytes. Pure.
 */

export interface FrontmatterBlock {
  /** The block's lines without line endings; line 0 is the opening `---` (after any BOM). */
  lines: string[];
  /** Each line's own ending (`\n`, `\r\n`, or `''` for a last line without one). */
  ends: string[];
  /** The first line's ending, used for inserted lines. */
  eol: string;
  bom: string;
  /** Index of the closing `---`/`...` line. */
  close: number;
  /** Everything after the closing line's line ending, byte for byte. */
  rest: string;
}

export function splitFrontmatter(text: string): FrontmatterBlock | null {
  const bom = text.charCodeAt(0) === 0xfeff ? '\uFEFF' : '';
  const body = bom ? text.slice(1) : text;
  const lines: string[] = [];
  const ends: string[] = [];
  let pos = 0;
  for (;;) {
    const nl = body.indexOf('\n', pos);
    const raw = nl < 0 ? body.slice(pos) : body.slice(pos, nl + 1);
    const end = raw.endsWith('\r\n') ? '\r\n' : raw.endsWith('\n') ? '\n' : '';
    const line = raw.slice(0, raw.length - end.length);
    if (lines.length === 0 && (line.trimEnd() !== '---' || end === '')) return null;
    lines.push(line);
    ends.push(end);
    if (lines.length > 1 && /^(---|\.\.\.)\s*$/.test(line)) {
      return { lines, ends, eol: ends[0]!, bom, close: lines.length - 1, rest: nl < 0 ? '' : body.slice(nl + 1) };
    }
    if (nl < 0) return null;
    pos = nl + 1;
  }
}

function keyPattern(key: string): RegExp {
  return new RegExp(`^${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*:(?=\\s|$)`);
}

/** 0-based index of a top-level key's line inside the block, or -1. */
export function findKeyLine(block: FrontmatterBlock, key: string): number {
  const re = keyPattern(key);
  for (let i = 1; i < block.close; i++) if (re.test(block.lines[i]!)) return i;
  return -1;
}

/** Lines after a key line that belong to its value (indented lines, or `- ` items under an empty value). */
function continuationEnd(block: FrontmatterBlock, keyLine: number): number {
  const valueEmpty = /:\s*(#.*)?$/.test(block.lines[keyLine]!) || /:\s*[|>][+-]?\d*\s*(#.*)?$/.test(block.lines[keyLine]!);
  let j = keyLine + 1;
  while (j < block.close) {
    const l = block.lines[j]!;
    if (/^[ \t]+\S/.test(l) || (valueEmpty && /^-(\s|$)/.test(l)) || (valueEmpty && l.trim() === '' && j + 1 < block.close && /^[ \t]/.test(block.lines[j + 1]!))) j++;
    else break;
  }
  return j;
}

const PLAIN_SAFE = /^[A-Za-z_][\w.\/-]*$/;
const YAML_KEYWORDS = /^(true|false|yes|no|on|off|null|y|n|~)$/i;

export function yamlScalar(value: string | number, quote?: string): string {
  if (typeof value === 'number') return String(value);
  if (quote === "'") return `'${value.replace(/'/g, "''")}'`;
  if (quote === '"') return JSON.stringify(value);
  if (PLAIN_SAFE.test(value) && !YAML_KEYWORDS.test(value)) return value;
  return JSON.stringify(value);
}

/** The value's quote character and a trailing ` # comment`, so a replaced value keeps both. */
function valueStyle(line: string, key: string): { prefix: string; quote?: string; comment: string } {
  const m = keyPattern(key).exec(line)!;
  const afterColon = line.slice(m[0].length);
  const lead = /^\s*/.exec(afterColon)![0];
  const prefix = line.slice(0, m[0].length) + (lead || ' ');
  const value = afterColon.slice(lead.length);
  const q = value[0];
  if (q === '"' || q === "'") {
    const close = value.indexOf(q, 1);
    const comment = close > 0 ? value.slice(close + 1) : '';
    return { prefix, quote: q, comment: /^\s+#/.test(comment) ? comment : '' };
  }
  const c = /\s+#.*$/.exec(value);
  return { prefix, comment: c ? c[0] : '' };
}

/**
 * Sets (or, with `null`, removes) top-level keys. Existing keys are rewritten in place; new
 * keys are inserted after `insertAfter` (or before the closing `---`), in the given order.
 */
export function updateFrontmatter(text: string, updates: ReadonlyArray<readonly [string, string | number | null]>, insertAfter = 'status'): string {
  const block = splitFrontmatter(text);
  if (!block) throw new Error('no YAML frontmatter (the file must start with a --- line)');
  // Work on copies; every untouched line keeps its own text and line ending.
  const work: FrontmatterBlock = { ...block, lines: [...block.lines], ends: [...block.ends] };
  const added: string[] = [];
  for (const [key, value] of updates) {
    const at = findKeyLine(work, key);
    if (at < 0) {
      if (value !== null) added.push(`${key}: ${yamlScalar(value)}`);
      continue;
    }
    const end = continuationEnd(work, at);
    if (value === null) {
      work.lines.splice(at, end - at);
      work.ends.splice(at, end - at);
    } else {
      const style = end === at + 1 ? valueStyle(work.lines[at]!, key) : { prefix: `${key}: `, comment: '' };
      const lineEnd = work.ends[end - 1]!;
      work.lines.splice(at, end - at, `${style.prefix}${yamlScalar(value, style.quote)}${style.comment}`);
      work.ends.splice(at, end - at, lineEnd);
    }
    work.close = work.lines.length - 1;
  }
  if (added.length > 0) {
    const anchor = findKeyLine(work, insertAfter);
    const pos = anchor < 0 ? work.close : continuationEnd(work, anchor);
    work.lines.splice(pos, 0, ...added);
    work.ends.splice(pos, 0, ...added.map(() => block.eol));
    work.close = work.lines.length - 1;
  }
  return block.bom + work.lines.map((l, i) => l + work.ends[i]!).join('') + block.rest;
}

/**
 * Replaces a top-level key and everything nested under it with `lines` (the key line first),
 * or adds them before the closing `---` when the key is absent. Every other line keeps its
 * bytes. For nested blocks such as the Persistence Loop's `persistence_loop:` checkpoint.
 */
export function setFrontmatterBlock(text: string, key: string, lines: readonly string[]): string {
  const block = splitFrontmatter(text);
  if (!block) throw new Error('no YAML frontmatter (the file must start with a --- line)');
  const work: FrontmatterBlock = { ...block, lines: [...block.lines], ends: [...block.ends] };
  const at = findKeyLine(work, key);
  const [from, to] = at < 0 ? [work.close, work.close] : [at, continuationEnd(work, at)];
  work.lines.splice(from, to - from, ...lines);
  work.ends.splice(from, to - from, ...lines.map(() => block.eol));
  return block.bom + work.lines.map((l, i) => l + work.ends[i]!).join('') + block.rest;
}
