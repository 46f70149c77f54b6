/**
 * Markdown ralf report refuses to parse: remark/micromark's cost grows with the square of a
 * list's length and with container depth (a 1 MB list took minutes and gigabytes; 50,000
 * nested `>` seconds), so the text handed to the parser is checked first, in one linear
 * pass. Real GSD summaries hold at most ~80 list items and 3 levels.
 */
import { RalfError, lineColumnAt } from '../errors.js';

export const MAX_LIST_ITEMS = 5000;
export const MAX_NESTING = 64;

const containerPrefix = /^(?:[ \t]*(?:>|[-*+](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$)))+/;

/** Throws RalfError (exit 2) naming the file and line when `text` (starting at `offset` of `whole`) is beyond the limits. */
export function checkMarkdownLimits(whole: string, offset: number, file: string): void {
  const text = whole.slice(offset);
  let items = 0;
  for (let at = 0; at < text.length; ) {
    const nl = text.indexOf('\n', at);
    const end = nl === -1 ? text.length : nl;
    const m = containerPrefix.exec(text.slice(at, Math.min(end, at + 4096)));
    if (m) {
      const prefix = m[0];
      const markers = (prefix.match(/>|[-*+]|\d{1,9}[.)]/g) ?? []).length;
      const indent = prefix.length - prefix.trimStart().length;
      if (/[-*+]|\d[.)]/.test(prefix)) items++;
      if (markers + Math.floor(indent / 2) > MAX_NESTING) {
        throw refuse(whole, offset + at, file, `block quotes or lists nested deeper than ${MAX_NESTING} levels`);
      }
      if (items > MAX_LIST_ITEMS) throw refuse(whole, offset + at, file, `more than ${MAX_LIST_ITEMS} list items`);
    }
    at = end + 1;
  }
}

function refuse(whole: string, at: number, file: string, what: string): RalfError {
  const { line } = lineColumnAt(whole, at);
  return new RalfError('summary_invalid', `${file}: ${what} (at line ${line}); ralf report does not parse Markdown this large, the file was not changed`, {
    problems: [{ file, line, message: what, hint: 'A plan summary holds a few dozen list items; move long lists or pasted logs out of it (or point --summary at another file).' }],
  });
}
