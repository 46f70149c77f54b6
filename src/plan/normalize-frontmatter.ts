/**
 * Turns parsed frontmatter (whatever types js-yaml produced) into PlanFrontmatter.
 * Real plans write `plan: 01` (a number after js-yaml), `plan: "08"`, `autonomous: "true"`,
 * `phase: 3.1`, `must_haves` as a flat list, or truths/artifacts/key_links at the top level.
 * Values are coerced where the meaning is clear; anything else becomes null with a warning.
 */
import type { PlanFrontmatter } from './model.js';
import { lineOfKey, type FrontmatterBlock } from './frontmatter.js';

type Artifact = PlanFrontmatter['must_haves']['artifacts'][number];
type KeyLink = PlanFrontmatter['must_haves']['key_links'][number];

const KNOWN = new Set(['phase', 'plan', 'type', 'wave', 'depends_on', 'files_modified', 'files-modified', 'autonomous', 'requirements', 'must_haves', 'gap_closure']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function scalarString(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return null;
}

function stringList(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.map(scalarString).filter((s): s is string => s !== null);
  const s = scalarString(value);
  if (s === null) return [];
  // `requirements: AUTH-01, AUTH-02` or `depends_on: 01-01`
  return s.split(',').map((x) => x.trim()).filter(Boolean);
}

/** `true`/`false` in any of the forms old tools wrote; undefined when not a boolean. */
export function coerceBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : undefined;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (['true', 'yes', 'on', 'y', '1'].includes(v)) return true;
    if (['false', 'no', 'off', 'n', '0'].includes(v)) return false;
  }
  return undefined;
}

/**
 * js-yaml reads `plan: 01` as 1 and `phase: 05` as 5. When the file name carries the same
 * number (`05-02-PLAN.md`), its spelling is kept ("05", "02").
 */
function idPart(value: unknown, part: string | undefined): string | null {
  if (typeof value === 'number' && part !== undefined && Number(part) === value) return part;
  return scalarString(value);
}

function artifact(value: unknown): Artifact | null {
  if (typeof value === 'string') {
    // `src/x.hpp (parser interface)` or `src/x.hpp — parser interface`
    const m = /^\s*`?([^\s`()]+)`?\s*(?:\((.*)\)|[-—:]\s*(.*))?\s*$/.exec(value);
    if (!m) return null;
    const out: Artifact = { path: m[1]! };
    const provides = (m[2] ?? m[3])?.trim();
    if (provides) out.provides = provides;
    return out;
  }
  if (!isRecord(value)) return null;
  const path = scalarString(value.path);
  if (path === null) return null;
  const out: Artifact = { path };
  const provides = scalarString(value.provides);
  if (provides !== null) out.provides = provides;
  const contains = scalarString(value.contains);
  if (contains !== null) out.contains = contains;
  const minLines = typeof value.min_lines === 'number' ? value.min_lines : typeof value.min_lines === 'string' ? Number(value.min_lines) : NaN;
  if (Number.isInteger(minLines) && minLines > 0) out.min_lines = minLines;
  if (value.exports !== undefined) out.exports = stringList(value.exports);
  return out;
}

function keyLink(value: unknown): KeyLink | null {
  if (typeof value === 'string') return value.trim() ? { via: value.trim() } : null;
  if (!isRecord(value)) return null;
  const out: KeyLink = {};
  for (const k of ['from', 'to', 'via', 'pattern'] as const) {
    const s = scalarString(value[k]);
    if (s !== null) out[k] = s;
  }
  return Object.keys(out).length > 0 ? out : null;
}

export interface NormalizedFrontmatter {
  frontmatter: PlanFrontmatter;
  warnings: string[];
}

/** `id` is the plan id from the file name (e.g. `05-02`, `09-03-FIX2`, `34`). */
export function normalizeFrontmatter(block: FrontmatterBlock, id: string): NormalizedFrontmatter {
  const data = block.data;
  const warnings: string[] = [];
  const at = (key: string) => {
    const line = lineOfKey(block, key);
    return line === undefined ? '' : `line ${line}: `;
  };
  const idParts = id.split('-');

  const waveRaw = data.wave;
  let wave: number | null = null;
  if (waveRaw !== undefined && waveRaw !== null) {
    const n = typeof waveRaw === 'number' ? waveRaw : Number(String(waveRaw).trim());
    if (Number.isInteger(n) && n >= 0) wave = n;
    else warnings.push(`${at('wave')}wave: expected a whole number, received ${JSON.stringify(waveRaw)}; ignored`);
  }

  let autonomous: boolean | null = null;
  if (data.autonomous !== undefined && data.autonomous !== null) {
    const b = coerceBoolean(data.autonomous);
    if (b === undefined) warnings.push(`${at('autonomous')}autonomous: expected true or false, received ${JSON.stringify(data.autonomous)}; treated as not set`);
    else autonomous = b;
  }

  let gapClosure = false;
  if (data.gap_closure !== undefined && data.gap_closure !== null) {
    const b = coerceBoolean(data.gap_closure);
    if (b === undefined) warnings.push(`${at('gap_closure')}gap_closure: expected true or false, received ${JSON.stringify(data.gap_closure)}; treated as false`);
    else gapClosure = b;
  }

  // must_haves: the template's object, a flat list of truths, or the three keys at the top level.
  const mustHaves: PlanFrontmatter['must_haves'] = { truths: [], artifacts: [], key_links: [] };
  let mh: unknown = data.must_haves;
  const consumed = new Set<string>();
  if (mh === undefined && ('truths' in data || 'artifacts' in data || 'key_links' in data)) {
    mh = { truths: data.truths, artifacts: data.artifacts, key_links: data.key_links };
    for (const k of ['truths', 'artifacts', 'key_links']) if (k in data) consumed.add(k);
    warnings.push(`${at(consumed.values().next().value as string)}truths/artifacts/key_links found at the top level of the frontmatter; read as must_haves`);
  }
  if (Array.isArray(mh)) {
    mustHaves.truths = stringList(mh);
  } else if (isRecord(mh)) {
    mustHaves.truths = stringList(mh.truths);
    const arts = Array.isArray(mh.artifacts) ? mh.artifacts : mh.artifacts === undefined || mh.artifacts === null ? [] : [mh.artifacts];
    for (const a of arts) {
      const x = artifact(a);
      if (x) mustHaves.artifacts.push(x);
      else warnings.push(`${at('artifacts')}must_haves.artifacts: an entry without a path was ignored (${JSON.stringify(a)})`);
    }
    const links = Array.isArray(mh.key_links) ? mh.key_links : mh.key_links === undefined || mh.key_links === null ? [] : [mh.key_links];
    for (const l of links) {
      const x = keyLink(l);
      if (x) mustHaves.key_links.push(x);
    }
  } else if (mh !== undefined && mh !== null) {
    warnings.push(`${at('must_haves')}must_haves: expected truths/artifacts/key_links, received ${typeof mh}; ignored`);
  }

  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) if (!KNOWN.has(k) && !consumed.has(k)) extra[k] = v;

  const frontmatter: PlanFrontmatter = {
    phase: idPart(data.phase, idParts[0]),
    plan: idPart(data.plan, idParts[1]),
    type: scalarString(data.type),
    wave,
    depends_on: stringList(data.depends_on),
    files_modified: stringList(data.files_modified ?? data['files-modified']),
    autonomous,
    requirements: stringList(data.requirements),
    must_haves: mustHaves,
    gap_closure: gapClosure,
    extra,
  };
  return { frontmatter, warnings };
}
