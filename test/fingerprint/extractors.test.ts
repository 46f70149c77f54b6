/**
 * Runner extractors (src/fingerprint/extractors/): each registered extractor on its own real
 * outputs (test/fixtures/fingerprint-extractors/<name>/), and the generic core alone on the
 * same outputs.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { EXTRACTORS } from '../../src/fingerprint/extractors/index.js';
import { fingerprint } from '../../src/fingerprint/fingerprint.js';
import { normalizeName, normalizeValues } from '../../src/fingerprint/normalize.js';
import { toLines } from '../../src/fingerprint/scan.js';
import { failureUnits } from '../../src/fingerprint/units.js';
import { repoRoot } from '../helpers/cli.js';

const fixtures = join(repoRoot, 'test', 'fixtures', 'fingerprint-extractors');
const folders = readdirSync(fixtures).filter((d) => statSync(join(fixtures, d)).isDirectory());

interface Expected {
  units: Array<{ runner: string; name: string; message: string | null; details: string[] }>;
  failing_units: string[];
  fingerprint: string;
  core_fingerprint: string;
}

function cases(folder: string): Array<[string, string, Expected]> {
  return readdirSync(join(fixtures, folder))
    .filter((f) => f.endsWith('.txt'))
    .map((f) => [f, readFileSync(join(fixtures, folder, f), 'utf8'), JSON.parse(readFileSync(join(fixtures, folder, f.replace(/\.txt$/, '.json')), 'utf8')) as Expected]);
}

describe('the extractor registry', () => {
  it('names the tool when no signature does: the runner shape that read the failing units', () => {
    const ctest = readFileSync(join(fixtures, 'ctest', 'get.txt'), 'utf8');
    expect(fingerprint(ctest).tool).toBe('ctest');
    expect(fingerprint(ctest, { extractors: false }).tool).toBeNull();
    expect(fingerprint(readFileSync(join(fixtures, 'tap', 'prove-is-total-verbose.txt'), 'utf8')).tool).toBe('tap');
  });

  it('has unique names, each with a fixture folder holding at least one case', () => {
    const names = EXTRACTORS.map((x) => x.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) {
      expect(existsSync(join(fixtures, name)), `fixture folder for ${name}`).toBe(true);
      expect(cases(name).length, `cases of ${name}`).toBeGreaterThan(0);
    }
  });

  it('has no fixture folder without an extractor', () => {
    expect(folders.filter((f) => !EXTRACTORS.some((x) => x.name === f))).toEqual([]);
  });
});

for (const folder of folders) {
  describe(`extractor ${folder}`, () => {
    for (const [file, text, expected] of cases(folder)) {
      it(`${file}: the failing units and their first errors`, () => {
        const units = failureUnits(toLines(text)).map((u) => ({
          runner: u.runner,
          name: normalizeName(u.name),
          message: u.messageText === null ? null : normalizeValues(u.messageText),
          details: u.details.map(normalizeValues),
        }));
        expect(units).toEqual(expected.units);
        expect(units.every((u) => u.runner === folder)).toBe(true);
        const full = fingerprint(text, { exitCode: 1 });
        expect(full.fingerprint).toBe(expected.fingerprint);
        expect(full.failing_units).toEqual(expected.failing_units);
        // A tool with no known signature is named by the runner shape that read its units.
        expect(full.tool).not.toBeNull();
      });

      it(`${file}: found by this extractor alone, and the core alone still names an error`, () => {
        const only = EXTRACTORS.filter((x) => x.name === folder);
        expect(failureUnits(toLines(text), only).map((u) => normalizeName(u.name))).toEqual(expected.units.map((u) => u.name));
        const core = fingerprint(text, { exitCode: 1, extractors: false });
        expect(core.fingerprint).toBe(expected.core_fingerprint);
        expect(core.line).not.toBeNull();
        expect(fingerprint(text, { exitCode: 1, extractors: [] }).fingerprint).toBe(core.fingerprint);
      });
    }
  });
}
