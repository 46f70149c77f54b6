/**
 * String order by UTF-16 code unit: the order of ISO timestamps and of `git ls-files`.
 * `localeCompare` (and `toLocaleString`) load ICU's collation or number data on first use,
 * 6–12 ms of a process that lives ~100 ms, for an order nobody reads as language.
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sort comparator: the most recently updated first (ISO timestamps; a missing one last). */
export function newestFirst(a: { updated_at?: string | null }, b: { updated_at?: string | null }): number {
  return compareText(b.updated_at ?? '', a.updated_at ?? '');
}

/** `20000` → `20,000`, without Intl (see above). */
export function groupThousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
