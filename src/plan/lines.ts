/**
 * Offset → 1-based line lookups over one text. Built once per document so every task,
 * check and problem can name its line without rescanning the text.
 */
export interface LineIndex {
  /** 1-based line of a character offset. */
  lineAt(offset: number): number;
  /** Offset of the first character of a 1-based line. */
  lineStart(line: number): number;
  /** Offset just past the end of a 1-based line (before its newline). */
  lineEnd(line: number): number;
  readonly lineCount: number;
}

export function lineIndex(text: string): LineIndex {
  const starts: number[] = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return {
    lineCount: starts.length,
    lineAt(offset: number): number {
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid]! <= offset) lo = mid;
        else hi = mid - 1;
      }
      return lo + 1;
    },
    lineStart(line: number): number {
      return starts[Math.min(Math.max(line, 1), starts.length) - 1]!;
    },
    lineEnd(line: number): number {
      const next = starts[line];
      return next === undefined ? text.length : next - 1;
    },
  };
}

/**
 * Line endings become `\n` (CRLF, and lone CR as old editors write it), so every later
 * step counts lines one way; a leading byte-order mark is dropped.
 */
export function normalizeNewlines(text: string): string {
  const noBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return noBom.indexOf('\r') === -1 ? noBom : noBom.replace(/\r\n?/g, '\n');
}
