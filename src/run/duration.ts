/**
 * Human durations for `--duration` and `--iteration-timeout`: `90s`, `15m`, `4h`, `1h30m`,
 * `2d`, `500ms`, or a bare number of seconds. Returns milliseconds, or null when the text
 * is not a duration (the caller turns that into a usage error naming the flag).
 */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, sec: 1000, m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDuration(text: string): number | null {
  const s = text.trim().toLowerCase();
  if (s === '') return null;
  if (/^\d+(\.\d+)?$/.test(s)) return Math.round(Number(s) * 1000);
  const part = /(\d+(?:\.\d+)?)\s*(ms|sec|min|s|m|h|d)/gy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  while ((m = part.exec(s)) !== null) {
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
    matched = part.lastIndex;
    // Allow `1h 30m` as well as `1h30m`.
    while (s[part.lastIndex] === ' ') part.lastIndex++;
  }
  if (matched !== s.length || total <= 0) return null;
  return Math.round(total);
}

/** `3723000` → `1h02m03s`, `95000` → `1m35s`, `4200` → `4.2s`: compact, for the progress line. */
export function formatElapsed(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)}s`;
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  if (h > 0) return `${h}h${String(m).padStart(2, '0')}m${String(sec).padStart(2, '0')}s`;
  return `${m}m${String(sec).padStart(2, '0')}s`;
}
