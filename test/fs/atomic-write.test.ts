import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deadWriterTemps, writeFileAtomic } from '../../src/fs/atomic-write.js';
import { tempDir } from '../helpers/cli.js';

/** A pid that belonged to a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('writeFileAtomic', () => {
  it('replaces the content and keeps the mode', () => {
    const dir = tempDir('ralf-atomic-');
    const file = join(dir, 'state.json');
    writeFileSync(file, 'old', { mode: 0o600 });
    writeFileAtomic(file, 'new');
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('removes old temp files that killed writers of the same file left, and nothing else', async () => {
    const dir = tempDir('ralf-atomic-');
    const file = join(dir, 'state.json');
    const dead = deadPid();
    const live = spawn('sleep', ['30']);
    try {
      const old = Date.now() / 1000 - 3600;
      const temps = {
        deadOld: `.state.json.${dead}.abc.tmp`,
        deadYoung: `.state.json.${dead}.abd.tmp`,
        liveOld: `.state.json.${live.pid}.abe.tmp`,
        otherTarget: `.other.json.${dead}.abf.tmp`,
      };
      for (const name of Object.values(temps)) writeFileSync(join(dir, name), 'partial');
      for (const name of [temps.deadOld, temps.liveOld, temps.otherTarget]) utimesSync(join(dir, name), old, old);
      expect(deadWriterTemps(dir, 'state.json').map((p) => p.slice(dir.length + 1))).toEqual([temps.deadOld, temps.deadYoung].sort());

      writeFileAtomic(file, 'v1');
      expect(existsSync(join(dir, temps.deadOld))).toBe(false);
      // A young temp may belong to a writer we cannot see; a live writer's, to one about to rename.
      expect(existsSync(join(dir, temps.deadYoung))).toBe(true);
      expect(existsSync(join(dir, temps.liveOld))).toBe(true);
      // Other files' temps are theirs to clean.
      expect(existsSync(join(dir, temps.otherTarget))).toBe(true);
      expect(readFileSync(file, 'utf8')).toBe('v1');
    } finally {
      live.kill('SIGKILL');
    }
  });
});
