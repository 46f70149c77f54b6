import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, runCli, tempDir } from '../helpers/cli.js';

const fixture = join(repoRoot, 'test', 'fixtures', 'fingerprint', 'tsc-missing-prop.txt');
const expected = 'cart.ts: error TS2339: Property discount does not exist on type Cart.';
/** The failing unit keeps the diagnostic as printed (the fingerprint drops its quote marks). */
const unit = "cart.ts: error TS2339: Property 'discount' does not exist on type 'Cart'.";

describe('ralf fingerprint', () => {
  it('prints one line for FILE and exits 0', async () => {
    const r = await runCli(['fingerprint', fixture]);
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toBe(expected);
  });

  it('reads stdin when no FILE is given', async () => {
    const r = await runCli(['fingerprint'], { stdin: 'pipe', input: 'src/cart.ts(19,32): error TS2339: Property \'discount\' does not exist on type \'Cart\'.\n' });
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toBe(expected);
  });

  it('--json adds the source line and the tool', async () => {
    const r = await runCli(['fingerprint', '--json', fixture]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(String(r.stdout))).toEqual({ fingerprint: expected, line: 1, tool: 'tsc', failing_units: [unit] });
  });

  it('reads a long stdin whole: the first error in the middle of 30 MB is found', async () => {
    const noise = (n: number) => Array.from({ length: n }, (_, i) => `INFO worker ${i} processed item ${i} in ${i % 90}ms`).join('\n');
    const input = `${noise(300_000)}\nsrc/cart.ts(19,32): error TS2339: Property 'discount' does not exist on type 'Cart'.\n${noise(300_000)}\n`;
    const r = await runCli(['fingerprint', '--json'], { stdin: 'pipe', input });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(String(r.stdout))).toMatchObject({ fingerprint: expected, line: 300_001 });
  });

  it('empty input gives "(no output)"', async () => {
    const r = await runCli(['fingerprint', '--json'], { stdin: 'pipe', input: '' });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(String(r.stdout))).toEqual({ fingerprint: '(no output)', line: null, tool: null, failing_units: [] });
  });

  it('a relative FILE resolves against --cwd', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'out.txt'), 'curl: (22) The requested URL returned error: 503\n');
    const r = await runCli(['fingerprint', 'out.txt', '--cwd', dir]);
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toBe('curl: (22) The requested URL returned error: 503');
  });

  it('a directory or missing FILE exits 2 and names the file', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'logs'));
    const d = await runCli(['fingerprint', 'logs', '--cwd', dir]);
    expect(d.exitCode).toBe(2);
    expect(String(d.stderr)).toContain('cannot read logs: is a directory');
    const m = await runCli(['fingerprint', '--json', join(dir, 'nope.txt')]);
    expect(m.exitCode).toBe(2);
    expect(JSON.parse(String(m.stdout)).error).toMatchObject({ kind: 'input_unreadable', problems: [{ file: join(dir, 'nope.txt') }] });
    // --json: the error is the one document on stdout; stderr stays quiet.
    expect(String(m.stderr)).toBe('');
    expect(JSON.parse(String(m.stdout)).error.message).toContain('no such file');
  });

  it('rejects unknown flags and extra arguments with exit 2', async () => {
    expect((await runCli(['fingerprint', '--nope'])).exitCode).toBe(2);
    expect((await runCli(['fingerprint', fixture, fixture])).exitCode).toBe(2);
  });
});
