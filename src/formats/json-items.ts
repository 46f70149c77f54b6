/**
 * Where the work items of a JSON seed are, and what their keys mean, decided by shape and by
 * spelling-insensitive key names rather than by which tool wrote the file. ralph1 writes
 * `[ {id, requirement, status} ]`; snarktank-style Ralph writes `{ "userStories": [ {id, title,
 * acceptanceCriteria, passes} ] }`; others `stories`, `tasks`, `items` with `status: "todo"`.
 * They are one shape: a list of objects, each with an id and some text. Pure, no zod.
 */

/** A key as written, compared without case, `_`, `-` or spaces: `acceptanceCriteria` = `acceptance_criteria`. */
export function keyForm(key: string): string {
  return key.toLowerCase().replace(/[\s_-]+/g, '');
}

/** The canonical meaning of an item's key (first spelling wins when a file has two). */
const ITEM_KEYS: Record<string, 'id' | 'title' | 'description' | 'requirement' | 'status' | 'passes' | 'verify' | 'tests' | 'acceptance' | 'steps' | 'checkpoint' | 'human'> = {
  id: 'id',
  title: 'title',
  name: 'title',
  summary: 'title',
  description: 'description',
  details: 'description',
  requirement: 'requirement',
  status: 'status',
  state: 'status',
  passes: 'passes',
  passed: 'passes',
  done: 'passes',
  completed: 'passes',
  complete: 'passes',
  verify: 'verify',
  verification: 'verify',
  // Test commands under their own key (`"testSteps": ["grep -q X f", ...]`): each is a check when
  // it is written as a command (its first word resolves), else a criterion to confirm.
  teststeps: 'tests',
  testcommands: 'tests',
  testcommand: 'tests',
  tests: 'tests',
  // ralph-town's per-criterion gate: "Command to verify (exit 0 = pass)".
  backpressure: 'verify',
  acceptance: 'acceptance',
  acceptancecriteria: 'acceptance',
  acceptancecriterion: 'acceptance',
  criteria: 'acceptance',
  // Steps are how to do the item, or how to check it (Anthropic's feature list: "verification
  // steps"); the reader decides by what else the item has.
  steps: 'steps',
  checkpoint: 'checkpoint',
  // A boolean that says a person must act or decide (`"needs_human_decision": true`).
  needshuman: 'human',
  needshumandecision: 'human',
  needshumanreview: 'human',
  needshumanapproval: 'human',
  needshumaninput: 'human',
  requireshuman: 'human',
  requireshumandecision: 'human',
  requireshumanreview: 'human',
  requireshumanapproval: 'human',
  humanrequired: 'human',
};

export type ItemKey = (typeof ITEM_KEYS)[string];

/**
 * The item's members under their canonical keys, each with the key as the file spells it (for
 * key paths and lines in messages, and for write-back). A boolean `done`/`completed` is a
 * state; a string one is not read as one.
 */
export function canonicalItem(raw: Record<string, unknown>): Map<ItemKey, { key: string; value: unknown }> {
  const out = new Map<ItemKey, { key: string; value: unknown }>();
  for (const [key, value] of Object.entries(raw)) {
    const meaning = ITEM_KEYS[keyForm(key)];
    if (!meaning) continue;
    // `title` beside `name` (`"name": "safe_write_file", "title": "Tool write_file segura"`): the
    // title is what people read; the name is an identifier.
    const titleWins = meaning === 'title' && keyForm(key) === 'title' && typeof value === 'string' && value.trim() !== '';
    if (out.has(meaning) && !titleWins) continue;
    if ((meaning === 'passes' || meaning === 'human') && typeof value !== 'boolean') continue;
    out.set(meaning, { key, value });
  }
  return out;
}

function meaningsOf(v: unknown): Set<ItemKey> | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  return new Set(Object.keys(v).map((k) => ITEM_KEYS[keyForm(k)]).filter((m) => m !== undefined));
}

const hasText = (m: Set<ItemKey>) => m.has('title') || m.has('description') || m.has('requirement');

/**
 * A list of items: every element an object with an id or a text, at least one with both (the
 * reader names what the others lack). A whole file that is an array needs no ids: every element
 * with a text is enough (`[{ "description": ..., "steps": [...], "complete": false }]`).
 */
function isItemList(v: unknown, root = false): boolean {
  if (!Array.isArray(v) || v.length === 0) return false;
  const keys = v.map(meaningsOf);
  if (root && keys.every((m) => m !== null && hasText(m))) return true;
  return keys.every((m) => m !== null && (m.has('id') || hasText(m))) && keys.some((m) => m!.has('id') && hasText(m!));
}

/**
 * Where the list of items is: the root array; the root object's `requirements` array; else its
 * one member that is a non-empty array of items (objects with an id and a title, description or
 * requirement). Null when there is none, or several (the file is ambiguous; name them).
 */
export function itemListKey(value: unknown): { key: string | null } | { ambiguous: string[] } | null {
  if (Array.isArray(value)) return { key: null };
  if (!value || typeof value !== 'object') return null;
  const obj = value as Record<string, unknown>;
  if (Array.isArray(obj.requirements)) return { key: 'requirements' };
  const lists = Object.entries(obj)
    .filter(([, v]) => isItemList(v))
    .map(([k]) => k);
  if (lists.length === 1) return { key: lists[0]! };
  return lists.length > 1 ? { ambiguous: lists } : null;
}
