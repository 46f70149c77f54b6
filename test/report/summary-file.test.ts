import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RalfError } from '../../src/errors.js';
import { displaySource, flattenConfig } from '../../src/report/config-values.js';
import { formatDuration, displayTaskName, shortFingerprint } from '../../src/report/format.js';
import { firstInvalidUtf8, minimalSummary, readSummaryText, summaryPathFor } from '../../src/report/summary-file.js';
import { tempDir } from '../helpers/cli.js';

describe('summary paths and titles', () => {
  it('maps PLAN.md to SUMMARY.md beside it, with the same stem', () => {
    expect(summaryPathFor('/p/.planning/phases/01-x/01-02-PLAN.md')).toBe('/p/.planning/phases/01-x/01-02-SUMMARY.md');
    expect(summaryPathFor('/p/09-03-FIX2-PLAN.md')).toBe('/p/09-03-FIX2-SUMMARY.md');
    expect(summaryPathFor('/p/71-FIX-PLAN.md')).toBe('/p/71-FIX-SUMMARY.md');
    expect(summaryPathFor('/p/01-foundation/PLAN.md')).toBe('/p/01-foundation/SUMMARY.md');
  });

  it('titles a created summary the GSD way', () => {
    expect(minimalSummary('01-02', null)).toBe('# Phase 01 Plan 02 Summary\n');
    expect(minimalSummary('01.5.2-04', 'Dual auth')).toBe('# Phase 01.5.2 Plan 04: Dual auth Summary\n');
    expect(minimalSummary('09-03-FIX2', null)).toBe('# Phase 09 Plan 03-FIX2 Summary\n');
    expect(minimalSummary('71-FIX', null)).toBe('# Plan 71-FIX Summary\n');
  });
});

describe('readSummaryText', () => {
  it('round-trips UTF-8 (with BOM) exactly and returns null for a missing file', () => {
    const dir = tempDir();
    const bytes = Buffer.from('\uFEFF# Größe 😀\r\n', 'utf8');
    writeFileSync(join(dir, 'a.md'), bytes);
    const text = readSummaryText(join(dir, 'a.md'))!;
    expect(Buffer.from(text, 'utf8').equals(bytes)).toBe(true);
    expect(readSummaryText(join(dir, 'missing.md'))).toBeNull();
  });

  it('refuses NUL bytes and invalid UTF-8 with the line', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'nul.md'), Buffer.from('a\nb\n\0'));
    writeFileSync(join(dir, 'bad.md'), Buffer.from([0x61, 0x0a, 0xe2, 0x82]));
    for (const [name, line] of [['nul.md', 3], ['bad.md', 2]] as const) {
      let err: unknown;
      try {
        readSummaryText(join(dir, name));
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(RalfError);
      expect((err as RalfError).problems[0]?.line).toBe(line);
    }
  });

  it('finds the first malformed UTF-8 byte (overlong, surrogate, truncated, out of range)', () => {
    expect(firstInvalidUtf8(Buffer.from('ok ✓ 😀', 'utf8'))).toBe(-1);
    expect(firstInvalidUtf8(Uint8Array.from([0x41, 0xc0, 0x80]))).toBe(1);
    expect(firstInvalidUtf8(Uint8Array.from([0xed, 0xa0, 0x80]))).toBe(0);
    expect(firstInvalidUtf8(Uint8Array.from([0x41, 0xf0, 0x9f, 0x98]))).toBe(1);
    expect(firstInvalidUtf8(Uint8Array.from([0xf4, 0x90, 0x80, 0x80]))).toBe(0);
    expect(firstInvalidUtf8(Uint8Array.from([0xff]))).toBe(0);
  });
});

describe('formatting', () => {
  it('durations, fingerprints, task names', () => {
    expect([850, 4200, 59_960, 72_000, 3_600_000 + 180_000].map(formatDuration)).toEqual(['850ms', '4.2s', '60.0s', '1m 12s', '1h 03m']);
    expect(shortFingerprint('sha1:9f2c1e77ab31d4e0')).toBe('9f2c1e77ab31');
    expect(shortFingerprint("db.ts: error TS2304: Cannot find name 'drizzle'.")).toBe("db.ts: error TS2304: Cannot find name 'drizzle'.");
    expect(shortFingerprint(`x.ts: ${'y'.repeat(80)}\nnext`)).toBe(`x.ts: ${'y'.repeat(53)}…`);
    expect(displayTaskName('Task 2: Wire login')).toBe('Wire login');
    expect(displayTaskName('Task 2')).toBe('Task 2');
  });

  it('config sources never show absolute paths of the machine', () => {
    const where = { projectRoot: '/work/app', home: '/home/me' };
    expect(displaySource('/work/app/.planning/config.json', where)).toBe('.planning/config.json');
    expect(displaySource('/home/me/.config/opencode/get-shit-done/config.json', where)).toBe('~/.config/opencode/get-shit-done/config.json');
    expect(displaySource('default', where)).toBe('default');
    expect(flattenConfig({ a: 1, b: { c: [1, 2], d: {} } })).toEqual([['a', 1], ['b.c', [1, 2]], ['b.d', {}]]);
  });
});
