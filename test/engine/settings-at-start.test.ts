import { describe, expect, it } from 'vitest';
import { limitsOfSettings, recordedSettings, settingsOf, settingsToApply } from '../../src/engine/core/settings-at-start.js';

const config = { max_iterations: 4, error_fingerprint_repeats: 2, no_progress_repeats: 2 };

describe('settings a loop started with', () => {
  it('the first verify records the config\'s; later ones apply the recorded values and name what the config changed', () => {
    const first = settingsToApply(undefined, config);
    expect(first).toEqual({ settings: { ...config, preexisting_failures: 'report', stop_on_first_failure: false }, record: true, edited: [] });
    const later = settingsToApply(first.settings, { ...config, max_iterations: 50, preexisting_failures: 'allow' });
    expect(later.record).toBe(false);
    expect(later.settings).toEqual(first.settings);
    expect(later.edited).toEqual(['max_iterations: 4 -> 50', 'preexisting_failures: report -> allow']);
    expect(limitsOfSettings(later.settings)).toEqual(config);
  });

  it('a time budget is carried when set; a hand-edited record that is not ralf\'s is ignored (the config applies and is recorded)', () => {
    expect(settingsOf({ ...config, time_budget_seconds: 600 }).time_budget_seconds).toBe(600);
    expect(recordedSettings({ max_iterations: '4' })).toBeNull();
    expect(settingsToApply({ max_iterations: 9 }, config).record).toBe(true);
  });
});
