/**
 * An item's identity in a seed format: what the item *is*, never where it sits. The engine
 * keys a task `id:<id>` when it has an `id` attribute (else `name:<slug>`), so every adapter
 * sets `attributes.id` from the item's own identity: a requirement's `id`, a task file's `id`
 * (else its file name), a PRD item's text. Reordering or inserting items keeps every result
 * with its item; an item whose text changed is a new item.
 */

/**
 * A stable slug: lower case, Latin accents dropped, runs of anything but letters and digits one
 * `-`, at most 80 characters. Letters of every script count (`日本語の挨拶` stays itself): an
 * item named only in Japanese or Chinese must not slug to the same fallback as its neighbour.
 */
export function slugOf(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  const chars = [...slug];
  return (chars.length > 80 ? chars.slice(0, 80).join('').replace(/-+$/, '') : slug) || 'item';
}

/** Makes ids unique in file order: the second `x` becomes `x#2`, the third `x#3`. */
export function uniqueIds(ids: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return ids.map((id) => {
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    return n === 1 ? id : `${id}#${n}`;
  });
}

/** The key results are filed under (run memory): the task's id, else its number. */
export function itemKey(task: { number: number; attributes: Record<string, string> }): string {
  const id = task.attributes.id;
  return id !== undefined && id !== '' ? `id:${id}` : String(task.number);
}
