/** Small text helpers for bounded output (pure). */

/** The last `lines` lines of `text`, also capped at `maxChars` (cut at a line start when possible). */
export function lastLines(text: string, lines: number, maxChars = lines * 200): string {
  const all = text.replace(/\s+$/, '').split('\n');
  if (all.length === 1 && all[0] === '') return '';
  let kept = all.slice(-lines);
  let out = kept.join('\n');
  if (out.length > maxChars) {
    out = out.slice(out.length - maxChars);
    const nl = out.indexOf('\n');
    if (nl !== -1 && nl < out.length - 1) out = out.slice(nl + 1);
    kept = out.split('\n');
  }
  const omitted = all.length - kept.length;
  return omitted > 0 ? `… (${omitted} earlier line${omitted === 1 ? '' : 's'} omitted)\n${out}` : out;
}

/** One line, at most `max` characters. */
export function oneLine(text: string, max = 160): string {
  const s = text.replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
