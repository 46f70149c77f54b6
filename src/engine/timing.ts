/**
 * Phase timings of a verify on stderr when RALF_TIMING=1 (for `npm run bench` and
 * for finding where a slow verify spends its time). Free when off.
 */
const on = typeof process !== 'undefined' && process.env.RALF_TIMING === '1';
const marks: Array<[string, number]> = [];

export function mark(label: string): void {
  if (on) marks.push([label, performance.now()]);
}

export function flushTimings(): void {
  if (!on || marks.length === 0) return;
  let prev = 0;
  const parts = marks.map(([label, t]) => {
    const s = `${label} +${(t - prev).toFixed(1)}`;
    prev = t;
    return s;
  });
  process.stderr.write(`ralf timing (ms since start): ${parts.join(', ')} = ${prev.toFixed(1)}\n`);
  marks.length = 0;
}
