import { describe, expect, it } from 'vitest';
import { fingerprint, fingerprintLines } from '../../src/fingerprint/fingerprint.js';
import { HEAD_LINES, MAX_RAW_LINE_CHARS, TAIL_LINES } from '../../src/fingerprint/lines.js';
import { OutputScanner, TAIL_CHARS } from '../../src/fingerprint/scan.js';

const noise = (from: number, n: number) => Array.from({ length: n }, (_, i) => `[${from + i}] INFO processed item ${from + i}`);

describe('OutputScanner: the whole output, streamed, in bounded memory', () => {
  it('finds the first error of a long run in the middle, far from head and tail', () => {
    const lines = [...noise(0, HEAD_LINES + 10_000), "src/cart.ts(19,32): error TS2339: Property 'discount' does not exist on type 'Cart'.", ...noise(1, 20_000), 'npm ERR! code ELIFECYCLE'];
    const r = fingerprint(lines.join('\n'));
    expect(r.fingerprint).toBe("cart.ts: error TS2339: Property discount does not exist on type Cart.");
    expect(r.line).toBe(HEAD_LINES + 10_001);
  });

  it('chunks split anywhere (inside a line, inside a UTF-8 character) give what one string gives', () => {
    const text = [...noise(0, HEAD_LINES + 50), '✖ Ünïcode failure in “quotes”', 'AssertionError: expected 40 to be 42', ...noise(2, TAIL_LINES + 50)].join('\n');
    const bytes = Buffer.from(text, 'utf8');
    const scanner = new OutputScanner();
    for (let i = 0; i < bytes.length; i += 7) scanner.push(bytes.subarray(i, i + 7));
    expect(fingerprintLines(scanner.lines())).toEqual(fingerprint(text));
    expect(fingerprint(text).fingerprint).toBe('AssertionError: expected 40 to be 42');
  });

  it('the earliest of the strongest middle errors wins over later, weaker and equal ones', () => {
    const middle = Array.from({ length: 200 }, (_, i) => `warning: unused ${i}\nsomething failed at step ${i}`).join('\n');
    const text = [...noise(0, HEAD_LINES + 1), middle, 'error: linking failed: cannot find -lfoo', ...noise(3, 100), middle, 'error: linking failed: cannot find -lbar', ...noise(4, TAIL_LINES + 1)].join('\n');
    expect(fingerprint(text).fingerprint.startsWith('error: linking failed: cannot find -lfoo')).toBe(true);
    expect(fingerprint(text).line).toBe(HEAD_LINES + 402);
  });

  it('keeps only a bounded tail of huge lines and reads a line without newline only so far', () => {
    const scanner = new OutputScanner();
    const big = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < HEAD_LINES; i++) scanner.push(`${i}\n`);
    for (let i = 0; i < 200; i++) scanner.push(`${big}\n`); // 200 MB in lines of 1 MB
    for (let i = 0; i < 64; i++) scanner.push(big); // 64 MB without a newline
    const lines = scanner.lines();
    const chars = lines.reduce((n, l) => n + l.text.length, 0);
    expect(lines.length).toBeLessThanOrEqual(HEAD_LINES + 1 + TAIL_CHARS / MAX_RAW_LINE_CHARS + 2);
    expect(chars).toBeLessThan(20 * 1024 * 1024);
    expect(lines[lines.length - 1]!.no).toBe(HEAD_LINES + 201);
  });
});
