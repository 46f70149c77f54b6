/**
 * The SUMMARY's YAML frontmatter: found by its `---` fences so the Markdown body can be
 * parsed on its own (remark does not know YAML), and checked without ever being rewritten.
 */
import matter from 'gray-matter';
import { RalfError, lineColumnAt, type Problem } from '../errors.js';

export interface Frontmatter {
  /** Offset where the opening `---` starts (1 after a BOM). */
  start: number;
  /** Offset just past the closing `---` line (and its line ending): where the body starts. */
  end: number;
  /** The YAML between the fences. */
  yaml: string;
  /** 1-based line of the first YAML line. */
  yaml_line: number;
}

const OPEN = /^---[ \t]*(\r?\n)/;
const CLOSE = /^---[ \t]*$/;

/**
 * Finds a leading frontmatter block. Returns null when the file does not start with
 * `---`; throws when it does but the block is never closed (where the body starts is
 * then unknowable, so nothing is written).
 */
export function findFrontmatter(text: string, file: string): Frontmatter | null {
  const start = text.startsWith('\uFEFF') ? 1 : 0;
  const open = OPEN.exec(text.slice(start));
  if (!open) return null;
  let pos = start + open[0].length;
  while (pos <= text.length) {
    const nl = text.indexOf('\n', pos);
    const lineEnd = nl === -1 ? text.length : nl;
    const line = text.slice(pos, lineEnd).replace(/\r$/, '');
    if (CLOSE.test(line)) {
      const yaml = text.slice(start + open[0].length, pos);
      return { start, end: nl === -1 ? text.length : nl + 1, yaml, yaml_line: lineColumnAt(text, start).line + 1 };
    }
    if (nl === -1) break;
    pos = nl + 1;
  }
  throw new RalfError('summary_invalid', `${file}: the frontmatter opened on line ${lineColumnAt(text, start).line} is never closed`, {
    problems: [
      {
        file,
        line: lineColumnAt(text, start).line,
        message: 'the frontmatter opened here is never closed',
        expected: 'a closing `---` line',
        received: 'end of file',
        hint: 'close the YAML frontmatter with a `---` line; the file was not changed',
      },
    ],
  });
}

type YamlEngine = { parse: (yaml: string) => unknown };

/**
 * Problems a YAML parser (js-yaml, as gray-matter uses) has with the frontmatter, as
 * warnings: GSD's own frontmatter reader is more lenient, and the report never touches
 * the YAML, so an unparsable frontmatter does not stop the report from being written.
 */
export function checkFrontmatterYaml(fm: Frontmatter, file: string): Problem[] {
  const yaml = (matter as unknown as { engines?: Record<string, YamlEngine> }).engines?.yaml;
  if (!yaml) return [];
  try {
    yaml.parse(fm.yaml);
    return [];
  } catch (err) {
    const e = err as { reason?: string; message?: string; mark?: { line?: number; column?: number } };
    const line = fm.yaml_line + (e.mark?.line ?? 0);
    return [
      {
        file,
        line,
        ...(e.mark?.column !== undefined ? { column: e.mark.column + 1 } : {}),
        message: `frontmatter is not valid YAML: ${e.reason ?? e.message?.split('\n')[0] ?? 'parse error'}`,
        hint: 'the frontmatter was left exactly as it is; YAML tools (gray-matter, PyYAML) will fail on it until it is fixed, e.g. by quoting values that start with @',
      },
    ];
  }
}
