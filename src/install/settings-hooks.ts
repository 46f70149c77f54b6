/**
 * ralf's Stop and SubagentStop hook entries in a Claude Code settings file (pure). Install
 * merges: every other key and every other hook (GSD registers its own Stop, SubagentStop
 * and PreCompact hooks) stays as it was. Uninstall gives back the exact bytes from before
 * the install when nothing else changed the file since, and otherwise removes only
 * ralf's own entries.
 */
import { RalfError } from '../errors.js';
import { sha256 } from './plan-install.js';

export const HOOK_EVENTS = ['Stop', 'SubagentStop'] as const;
/** Seconds Claude Code gives the hook; it answers in well under one. */
const HOOK_TIMEOUT_SECONDS = 30;

/** What the manifest records about the settings file (`Manifest.settings_hooks`). */
export interface SettingsHooksRecord {
  /** Settings file, relative to the install root (`settings.json`, `settings.local.json`). */
  rel: string;
  /** The hook command ralf registered. */
  command: string;
  /** The file's text before ralf first touched it; null: there was no file. */
  before: string | null;
  /** sha256 of the text ralf last wrote: equal on uninstall means nobody else changed it. */
  after_sha256: string;
}

type Json = Record<string, unknown>;

interface HookGroup {
  matcher?: string;
  hooks?: Array<{ type?: string; command?: string; timeout?: number }>;
}

function parseSettings(text: string, path: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new RalfError('settings_invalid', `${path} is not valid JSON: ralf will not change it`, {
      problems: [{ file: path, message: (err as Error).message, hint: 'fix the file (Claude Code settings are plain JSON, no comments), or install with --no-hooks' }],
    });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RalfError('settings_invalid', `${path} must hold a JSON object`, { problems: [{ file: path, message: 'expected an object', hint: 'fix the file, or install with --no-hooks' }] });
  }
  return value as Json;
}

/** The indentation the file already uses (two spaces for a new file). */
function indentOf(text: string | null): string | number {
  const m = text ? /\n([ \t]+)"/.exec(text) : null;
  return m ? m[1]! : 2;
}

function serialize(value: Json, like: string | null): string {
  return `${JSON.stringify(value, null, indentOf(like))}\n`;
}

const isOurs = (commands: readonly string[]) => (h: { command?: string }) => typeof h.command === 'string' && commands.includes(h.command);

/** Removes hook entries whose command is one of `commands`; drops groups, events and `hooks` left empty by that. */
function withoutCommands(settings: Json, commands: readonly string[]): { value: Json; removed: number } {
  const hooks = settings.hooks;
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) return { value: settings, removed: 0 };
  let removed = 0;
  const nextHooks: Json = {};
  for (const [event, groups] of Object.entries(hooks as Json)) {
    if (!Array.isArray(groups)) {
      nextHooks[event] = groups;
      continue;
    }
    const kept: unknown[] = [];
    for (const group of groups as HookGroup[]) {
      if (!group || typeof group !== 'object' || !Array.isArray(group.hooks)) {
        kept.push(group);
        continue;
      }
      const left = group.hooks.filter((h) => !isOurs(commands)(h));
      removed += group.hooks.length - left.length;
      if (left.length === group.hooks.length) kept.push(group);
      else if (left.length > 0) kept.push({ ...group, hooks: left });
    }
    if (kept.length > 0 || groups.length === 0) nextHooks[event] = kept;
  }
  const value: Json = { ...settings, hooks: nextHooks };
  if (Object.keys(nextHooks).length === 0 && removed > 0) delete value.hooks;
  return { value, removed };
}

export interface SettingsPlan {
  /** New text of the settings file; null: leave the file as it is. */
  text: string | null;
  /** Delete the file (uninstall of a file ralf created, untouched since). */
  remove: boolean;
  record: SettingsHooksRecord | null;
  action: 'created' | 'updated' | 'unchanged' | 'restored' | 'removed' | 'kept';
  note?: string;
}

/**
 * Install: the settings text with ralf's entry in `hooks.Stop` and `hooks.SubagentStop`
 * (a previous ralf command, e.g. from another node path, is replaced). `current` is the
 * file's text (null: none); `old` what the last install recorded.
 */
export function planSettingsInstall(args: { rel: string; path: string; current: string | null; command: string; old: SettingsHooksRecord | null }): SettingsPlan {
  const { current, command, old } = args;
  const settings = current === null ? {} : parseSettings(current, args.path);
  const previous = [command, ...(old ? [old.command] : [])];
  const base = withoutCommands(settings, previous).value;
  const hooks = { ...((typeof base.hooks === 'object' && base.hooks !== null && !Array.isArray(base.hooks) ? base.hooks : {}) as Json) };
  for (const event of HOOK_EVENTS) {
    const groups = Array.isArray(hooks[event]) ? [...(hooks[event] as unknown[])] : [];
    groups.push({ hooks: [{ type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS }] });
    hooks[event] = groups;
  }
  const next: Json = { ...base, hooks };
  const text = serialize(next, current);
  // Already exactly what ralf would write (a re-install): leave the bytes alone.
  const already = current !== null && JSON.stringify(settings) === JSON.stringify(next);
  // What the file was without ralf: the bytes from before the first install, as long as
  // nothing else has written the file since ralf last did; else the file minus ralf's entries.
  const untouched = old !== null && current !== null && sha256(current) === old.after_sha256;
  const before = old === null ? current : untouched ? old.before : current === null ? null : serialize(base, current);
  if (already) return { text: null, remove: false, record: { rel: args.rel, command, before, after_sha256: sha256(current) }, action: 'unchanged' };
  return { text, remove: false, record: { rel: args.rel, command, before, after_sha256: sha256(text) }, action: current === null ? 'created' : 'updated' };
}

/** Uninstall: the exact bytes from before when the file is as ralf left it, else the file minus ralf's entries. */
export function planSettingsUninstall(args: { path: string; current: string | null; record: SettingsHooksRecord }): SettingsPlan {
  const { current, record } = args;
  if (current === null) return { text: null, remove: false, record: null, action: 'kept', note: 'the settings file is gone already' };
  if (sha256(current) === record.after_sha256) {
    if (record.before === null) return { text: null, remove: true, record: null, action: 'removed', note: 'ralf created it; nothing else changed it' };
    return { text: record.before, remove: false, record: null, action: 'restored', note: 'byte for byte as it was before ralf installed' };
  }
  let settings: Json;
  try {
    settings = parseSettings(current, args.path);
  } catch {
    return { text: null, remove: false, record: null, action: 'kept', note: `not valid JSON any more: remove the hook entries running "${record.command}" yourself` };
  }
  const { value, removed } = withoutCommands(settings, [record.command]);
  if (removed === 0) return { text: null, remove: false, record: null, action: 'kept', note: 'ralf\'s hook entries were already gone' };
  return { text: serialize(value, current), remove: false, record: null, action: 'updated', note: 'edited since the install: only ralf\'s hook entries were removed' };
}
