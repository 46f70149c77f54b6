/**
 * Phase timings of a verify when RALF_TIMING=1 (for `npm run bench` and for finding where a
 * slow verify spends its time); the CLI prints the line on stderr. Free when off.
 */
const on = typeof process !== 'undefined' && process.env.RALF_TIMING === '1';
const marks: Array<[string, number]> = [];

export function mark(label: string): void {
  if (on) marks.push([label, performance.now()]);
}

/** The timings line (and forget the marks); null when timing is off. */
export function takeTimings(): string | null {
  if (!on || marks.length === 0) return null;
  let prev = 0;
  const parts = marks.map(([label, t]) => {
    const s = `${label} +${(t - prev).toFixed(1)}`;
    prev = t;
    return s;
  });
  marks.length = 0;
  return `ralf timing (ms since start): ${parts.join(', ')} = ${prev.toFixed(1)}`;
}
