/** Small, locale-independent formatters for the report (same output on every machine). */

/** `850ms`, `4.2s`, `1m 12s`, `1h 03m`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${(Math.round(seconds * 10) / 10).toFixed(1)}s`;
  const totalSeconds = Math.round(seconds);
  if (totalSeconds < 3600) return `${Math.floor(totalSeconds / 60)}m ${String(totalSeconds % 60).padStart(2, '0')}s`;
  const totalMinutes = Math.round(totalSeconds / 60);
  return `${Math.floor(totalMinutes / 60)}h ${String(totalMinutes % 60).padStart(2, '0')}m`;
}

/**
 * A fingerprint as the report shows it: the engine's are normalized error lines (readable,
 * kept up to 60 characters); hash-like ones are cut to 12 characters, enough to tell apart.
 */
export function shortFingerprint(fingerprint: string): string {
  const text = oneLine(fingerprint);
  const bare = text.replace(/^(sha\d*|md5|fp):/i, '');
  if (/^[0-9a-f]{16,}$/i.test(bare)) return bare.slice(0, 12);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/** GSD task names often repeat the number (`Task 2: Wire login`); the table shows it once. */
export function displayTaskName(name: string): string {
  const stripped = name.replace(/^\s*task\s+\d+\s*[:.\-–—]\s*/i, '').trim();
  return oneLine(stripped || name);
}

/** Table cells and list lines must stay on one line. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function plural(n: number, word: string, pluralWord = `${word}s`): string {
  return `${n} ${n === 1 ? word : pluralWord}`;
}
