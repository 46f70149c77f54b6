/**
 * Where a SUMMARY body can start being parsed without changing what the report section
 * finder sees. micromark is linear but slow (~1–3 ms per KB), and only the document's tail
 * matters: the first mention of the report heading onward, or, for a new section, the
 * trailing Self-Check headings and GSD footer.
 *
 * A split point is a line starting `#`…`######` + space in column 0 right after a blank
 * line: outside fenced code and multi-paragraph HTML blocks such a line always starts a
 * top-level heading (it cannot continue a paragraph, list item or quote), so parsing from
 * there yields the same top-level blocks as parsing the whole body. The scan only follows
 * column-0 fences; on anything it does not model (an indented fence, an HTML block that can
 * span blank lines) it answers 0: parse everything.
 */
const selfCheck = /^self[-\s]?check\b/i;
const htmlSpanningBlankLines = /^ {0,3}(?:<(?:script|pre|style|textarea)(?:[\s>]|$)|<!--|<\?|<![A-Za-z]|<!\[CDATA\[)/i;
const strip = (s: string) => s.replace(/[*_`~]/g, '').replace(/\s+/g, ' ').trim().toLowerCase();

export function tailStart(body: string, title: string): number {
  const wanted = strip(title);
  const boundaries: Array<{ offset: number; depth: number; text: string }> = [];
  let fence: { char: string; length: number } | null = null;
  let previousBlank = true;
  let firstMention = -1;
  let offset = 0;
  while (offset <= body.length) {
    const newline = body.indexOf('\n', offset);
    const end = newline === -1 ? body.length : newline;
    const line = body.slice(offset, end).replace(/\r$/, '');
    if (firstMention === -1 && strip(line).includes(wanted)) firstMention = offset;
    if (fence) {
      const close = /^(`{3,}|~{3,})[ \t]*$/.exec(line);
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.length) fence = null;
    } else {
      const open = /^(`{3,}|~{3,})(.*)$/.exec(line);
      if (open && !(open[1]![0] === '`' && open[2]!.includes('`'))) fence = { char: open[1]![0]!, length: open[1]!.length };
      else if (/^ {1,3}(`{3,}|~{3,})/.test(line) || htmlSpanningBlankLines.test(line)) return 0;
      else if (previousBlank) {
        const heading = /^(#{1,6})(?:[ \t]+(.*))?$/.exec(line);
        if (heading) boundaries.push({ offset, depth: heading[1]!.length, text: strip((heading[2] ?? '').replace(/[ \t]#+[ \t]*$/, '')) });
      }
    }
    previousBlank = line.trim() === '';
    if (newline === -1) break;
    offset = newline + 1;
  }
  if (fence) return 0; // an unclosed fence: let the full parse decide
  const before = (limit: number, ok: (b: (typeof boundaries)[number]) => boolean) => {
    let found = 0;
    for (const b of boundaries) if (b.offset <= limit && ok(b)) found = b.offset;
    return found;
  };
  if (firstMention !== -1) return before(firstMention, () => true);
  // A new section goes before the trailing run of Self-Check headings or the footer: start
  // at the last rank-1/2 heading that is not a Self-Check, so that run is parsed whole.
  return before(body.length, (b) => b.depth <= 2 && !selfCheck.test(b.text));
}
