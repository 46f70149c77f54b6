/**
 * An item's identity in a seed format: what the item *is*, never where it sits. The engine
 * keys a task `id:<id>` when it has an `id` attribute (else `name:<slug>`), so every adapter
 * sets `attributes.id` from the item's own identity: a requirement's `id`, a task file's `id`
 * (else its file name), a PRD item's text. Reordering or inserting items keeps every result
 * with its item; an item whose text changed is a new item.
 */

/** A stable slug: lower case, accents dropped, runs of anything else one `-`, at most 80 characters. */
export function slugOf(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return (slug.length > 80 ? slug.slice(0, 80).replace(/-+$/, '') : slug) || 'item';
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
