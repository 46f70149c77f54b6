/**
 * The settings a loop's verdicts depend on are the ones it started with. `.planning/config.json`
 * lies in the project the agent edits: an agent that raises `max_iterations` or the repeat
 * counts, or sets `preexisting_failures: "allow"` (so the tests that failed before the task no
 * longer block), must not change how its own work is judged, exactly as an edit of the plan's
 * checks must not (checks-at-start.ts). The values are recorded at `task start` or the loop's
 * first verify and used by every later verify; a reset records them again (a human who changed
 * the config on purpose runs `ralf task reset`). Pure: values in, values out.
 */
import type { LoopLimits } from './events.js';

export interface LoopSettings extends LoopLimits {
  preexisting_failures: 'report' | 'allow' | 'off';
  stop_on_first_failure: boolean;
}

/** The part of the effective config a loop's verdicts depend on. */
export interface SettingsSource {
  max_iterations: number;
  error_fingerprint_repeats: number;
  no_progress_repeats: number;
  time_budget_seconds?: number | undefined;
  preexisting_failures?: 'report' | 'allow' | 'off' | undefined;
  stop_on_first_failure?: boolean | undefined;
}

export function settingsOf(config: SettingsSource): LoopSettings {
  return {
    max_iterations: config.max_iterations,
    error_fingerprint_repeats: config.error_fingerprint_repeats,
    no_progress_repeats: config.no_progress_repeats,
    ...(config.time_budget_seconds !== undefined ? { time_budget_seconds: config.time_budget_seconds } : {}),
    preexisting_failures: config.preexisting_failures ?? 'report',
    stop_on_first_failure: config.stop_on_first_failure ?? false,
  };
}

const KEYS = ['max_iterations', 'error_fingerprint_repeats', 'no_progress_repeats', 'time_budget_seconds', 'preexisting_failures', 'stop_on_first_failure'] as const;

/** A recorded value as ralf wrote it (a hand-edited state that is not one is ignored). */
export function recordedSettings(value: unknown): LoopSettings | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  const counts = ['max_iterations', 'error_fingerprint_repeats', 'no_progress_repeats'].every((k) => typeof v[k] === 'number' && Number.isFinite(v[k]));
  const budget = v.time_budget_seconds === undefined || typeof v.time_budget_seconds === 'number';
  const pre = v.preexisting_failures === 'report' || v.preexisting_failures === 'allow' || v.preexisting_failures === 'off';
  return counts && budget && pre && typeof v.stop_on_first_failure === 'boolean' ? (v as unknown as LoopSettings) : null;
}

/** The settings this verify applies: the recorded ones, else the config's (and they get recorded). */
export function settingsToApply(recorded: unknown, config: SettingsSource): { settings: LoopSettings; record: boolean; edited: string[] } {
  const now = settingsOf(config);
  const atStart = recordedSettings(recorded);
  if (atStart === null) return { settings: now, record: true, edited: [] };
  const edited = KEYS.filter((k) => atStart[k] !== now[k]).map((k) => `${k}: ${String(atStart[k] ?? 'unset')} -> ${String(now[k] ?? 'unset')}`);
  return { settings: atStart, record: false, edited };
}

export function limitsOfSettings(s: LoopSettings): LoopLimits {
  return { max_iterations: s.max_iterations, error_fingerprint_repeats: s.error_fingerprint_repeats, no_progress_repeats: s.no_progress_repeats, ...(s.time_budget_seconds !== undefined ? { time_budget_seconds: s.time_budget_seconds } : {}) };
}
