import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCheckLedger, parseLedger, reapOrphanChecks } from '../../src/verify/orphan-checks.js';
import { tempDir } from '../helpers/cli.js';
import { alive, waitGone } from '../helpers/processes.js';

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

const dir = () => tempDir('ralf-orphans-');

/** A pid whose process has exited. */
const deadPid = () => Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);

/** A check-like process group: a detached sleeper (its pid is the group id). */
function group(): number {
  const c = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
  children.push(c);
  return c.pid!;
}

const startOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
};

describe('check ledger', () => {
  it('parses what it wrote, skipping torn lines and pids no signal may go to', () => {
    expect(parseLedger('ralf 123 456\ngroup 130 457\ngroup 1 1\ngroup 0 0\ngro')).toEqual({ ralf: { pid: 123, start: '456' }, groups: [{ pgid: 130, start: '457' }] });
    expect(parseLedger('group 77 -\n')).toEqual({ ralf: null, groups: [{ pgid: 77, start: null }] });
  });

  it('is written on the first check and removed when the verify ends', () => {
    const d = dir();
    const ledger = openCheckLedger(d);
    expect(existsSync(join(d, `.checks-${process.pid}`))).toBe(false);
    const g = group();
    ledger.add(g);
    expect(parseLedger(readFileSync(join(d, `.checks-${process.pid}`), 'utf8'))).toEqual({ ralf: { pid: process.pid, start: startOf(process.pid) }, groups: [{ pgid: g, start: startOf(g) }] });
    ledger.close();
    expect(existsSync(join(d, `.checks-${process.pid}`))).toBe(false);
  });

  it("kills the groups of a dead verify's ledger, and only those that are still the same processes", async () => {
    const d = dir();
    const dead = deadPid();
    const orphan = group();
    const reused = group(); // stands for a pid reused by an unrelated process: its start time differs
    writeFileSync(join(d, `.checks-${dead}`), `ralf ${dead} 1\ngroup ${orphan} ${startOf(orphan)}\ngroup ${reused} 1\n`);
    expect(reapOrphanChecks(d)).toEqual([orphan]);
    expect(await waitGone(orphan, 3000)).toBe(true);
    expect(alive(reused)).toBe(true);
    expect(existsSync(join(d, `.checks-${dead}`))).toBe(false);
  });

  it("leaves a live verify's checks alone", () => {
    const d = dir();
    const owner = group(); // a live process standing for the other verify
    const check = group();
    writeFileSync(join(d, `.checks-${owner}`), `ralf ${owner} ${startOf(owner)}\ngroup ${check} ${startOf(check)}\n`);
    expect(reapOrphanChecks(d)).toEqual([]);
    expect(alive(check)).toBe(true);
    expect(existsSync(join(d, `.checks-${owner}`))).toBe(true);
  });
});
