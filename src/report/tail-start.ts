/**
 * Where a SUMMARY body can start being parsed without changing what the report section
 * finder sees. micromark is linear but slow (~1–3 ms per KB), and only the document's tail
 * matters: the first mention of the report heading onward, or, for a new section, the
 * trailing Self-Check headings and GSD footer.
 *
 * A split point is a line starting `#`…`######` + space in column 0 outside fenced code and
 * HTML blocks: such a line always starts a top-level heading (an ATX heading interrupts a
 * paragraph, and a column-0 line cannot continue a list item or quote lazily unless it is
 * paragraph text), so parsing from there yields the same top-level blocks as parsing the
 * whole body. HTML blocks that end at a blank line are skipped over, conservatively: any
 * line opening with a tag starts one, up to the next blank line. The scan only follows
 * column-0 fences; on anything it does not model (an indented fence, an HTML block that can
 * span blank lines and does not end on its own line) it answers 0: parse everything.
 * `mustInclude`: an offset the parsed tail must contain (the report's start marker).
 */
const selfCheck = /^self[-\s]?check\b/i;
/** CommonMark HTML blocks 1–5 run until their end string, blank lines included; each may end on its opening line. */
const htmlBlockOpen = /^ {0,3}(?:<(script|pre|style|textarea)(?:[\s>]|$)|(<!--)|(<\?)|(<!\[CDATA\[)|(<![A-Za-z]))/i;

/** CommonMark HTML blocks 6 and 7 (`<div`, `</x`, any tag alone on its line) run to the next blank line. */
const htmlUntilBlank = /^ {0,3}<\/?[A-Za-z][A-Za-z0-9-]*(?:[\s/>]|$)/;

/** Whether the line opens an HTML block that can span blank lines and does not end on this line. */
function opensSpanningHtml(line: string): boolean {
  const m = htmlBlockOpen.exec(line);
  if (!m) return false;
  const rest = line.slice(m[0].length);
  const end = m[1] ? new RegExp(`</${m[1]}>`, 'i') : m[2] ? /-->/ : m[3] ? /\?>/ : m[4] ? /\]\]>/ : />/;
  // `<!-->` and `<!--->` are complete comments; otherwise the end string must follow the opener.
  if (m[2] && /^-?>/.test(rest)) return false;
  return !end.test(rest);
}
/** A line's first character when that line is plain text to the scan below (see there). */
const ORDINARY_LINE = /[^\s#<`~]/y;
// Whitespace runs become one space; a run that already is one space is left (fewer replacements).
const strip = (s: string) => s.replace(/[*_`~]/g, '').replace(/\s{2,}|[^\S ]/g, ' ').trim().toLowerCase();

/**
 * Offset of the first line whose `strip` contains `wanted`, or -1: `strip` applied to every line
 * at once (a few passes over the text instead of two replaces per line). Line by line it is the
 * same text: no step crosses a newline (whitespace runs stop at it, lower-casing has no context
 * across it), so the line that holds the match is found by counting newlines.
 */
function firstMention(body: string, wanted: string): number {
  // Whitespace runs become one space (only runs that are not already one space are replaced),
  // then each line is trimmed.
  const stripped = body.replace(/[*_`~]/g, '').replace(/[^\S\n]{2,}|[^\S\n ]/g, ' ').replace(/ \n ?|\n /g, '\n').replace(/^ | $/g, '').toLowerCase();
  const at = stripped.indexOf(wanted);
  if (at === -1) return -1;
  let offset = 0;
  for (let nl = stripped.indexOf('\n'); nl !== -1 && nl < at; nl = stripped.indexOf('\n', nl + 1)) offset = body.indexOf('\n', offset) + 1;
  return offset;
}

export function tailStart(body: string, title: string, mustInclude = body.length): number {
  return tailStarts(body, title, mustInclude).start;
}

export interface TailStarts {
  /** Where parsing can start (tailStart). */
  start: number;
  /**
   * A later start from which the section ralf wrote, if it is intact, is found exactly as from
   * `start`: the line of the start marker (`mustInclude`), when that line is a split point and
   * nothing between `start` and it mentions the title. Null otherwise. Parsing from here
   * finds the same top-level blocks from the marker on (an HTML comment block, like an ATX
   * heading, interrupts a paragraph and is no lazy continuation); what it cannot see is only
   * what lies between `start` and the marker, which holds no marker and no report heading. So
   * an `existing` placement found from here is the answer; any other one needs `start`.
   */
  marker: number | null;
}

export function tailStarts(body: string, title: string, mustInclude = body.length): TailStarts {
  const wanted = strip(title);
  // The line at `mustInclude` opens a comment closed on that line, outside fences and HTML blocks.
  let markerSplits = false;
  const boundaries: Array<{ offset: number; depth: number; text: string }> = [];
  let fence: { char: string; length: number } | null = null;
  let previousBlank = true;
  // Inside an HTML block of kind 6/7 (ends at a blank line): a `#` line there is HTML text.
  let inHtml = false;
  let offset = 0;
  while (offset <= body.length) {
    const newline = body.indexOf('\n', offset);
    // Most lines are paragraph or list text: not blank, and none of `#`, `<`, a fence character or
    // indentation first. Such a line opens, closes and ends nothing below (a fence or HTML block
    // it is in goes on): one sticky test instead of the line's regexes.
    ORDINARY_LINE.lastIndex = offset;
    if (ORDINARY_LINE.test(body)) {
      if (newline === -1) break;
      offset = newline + 1;
      continue;
    }
    const end = newline === -1 ? body.length : newline;
    const line = body.slice(offset, end).replace(/\r$/, '');
    if (fence) {
      const close = /^(`{3,}|~{3,})[ \t]*$/.exec(line);
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.length) fence = null;
    } else {
      const open = /^(`{3,}|~{3,})(.*)$/.exec(line);
      if (open && !(open[1]![0] === '`' && open[2]!.includes('`'))) fence = { char: open[1]![0]!, length: open[1]!.length };
      else if (/^ {1,3}(`{3,}|~{3,})/.test(line) || opensSpanningHtml(line)) return { start: 0, marker: null };
      else if (inHtml || htmlUntilBlank.test(line)) inHtml = true;
      else {
        if (offset === mustInclude && line.startsWith('<!--')) markerSplits = true;
        const heading = /^(#{1,6})(?:[ \t]+(.*))?$/.exec(line);
        if (heading) boundaries.push({ offset, depth: heading[1]!.length, text: strip((heading[2] ?? '').replace(/[ \t]#+[ \t]*$/, '')) });
      }
    }
    previousBlank = line.trim() === '';
    if (previousBlank) inHtml = false;
    if (newline === -1) break;
    offset = newline + 1;
  }
  if (fence) return { start: 0, marker: null }; // an unclosed fence: let the full parse decide
  const before = (limit: number, ok: (b: (typeof boundaries)[number]) => boolean) => {
    let found = 0;
    for (const b of boundaries) if (b.offset <= limit && ok(b)) found = b.offset;
    return found;
  };
  const mention = firstMention(body, wanted);
  if (mention !== -1 || mustInclude < body.length) {
    const start = before(Math.min(mention === -1 ? body.length : mention, mustInclude), () => true);
    // Whitespace across lines counts too: a setext heading's text may span lines.
    const clear = markerSplits && !strip(body.slice(start, mustInclude)).includes(wanted);
    return { start, marker: clear ? mustInclude : null };
  }
  // A new section goes before the trailing run of Self-Check headings or the footer: start
  // at the last rank-1/2 heading that is not a Self-Check, so that run is parsed whole.
  return { start: before(body.length, (b) => b.depth <= 2 && !selfCheck.test(b.text)), marker: null };
}
