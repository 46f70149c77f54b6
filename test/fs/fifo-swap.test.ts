/**
 * Readers of user files never hang when the path is swapped for a FIFO between a check and
 * the read. A worker thread keeps replacing the path (atomic rename) with a regular file or a
 * FIFO while the reader reads it in a loop; a reader that stat()s and then opens blocks in
 * open() on the FIFO. The worker notices a reader that stopped making progress and releases
 * it (it opens the FIFO for writing and closes it, so the blocked open returns and reads EOF):
 * a release is a hang that happened. Every reader must finish with none.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { readJsonFile } from '../../src/config/read-json-file.js';
import { detectRunTarget } from '../../src/formats/detect.js';
import { readPlanText } from '../../src/plan/read.js';
import { readSummaryText } from '../../src/report/summary-file.js';
import { tempDir } from '../helpers/cli.js';

const SWAPPER = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { target, regular, fifo, ctrl } = workerData;
const flags = new Int32Array(ctrl); // [0] stop, [1] reader progress, [2] releases
const tmp = target + '.swap';
let last = -1, since = Date.now(), i = 0;
while (Atomics.load(flags, 0) === 0) {
  try { fs.rmSync(tmp, { force: true }); fs.linkSync(i++ % 2 ? fifo : regular, tmp); fs.renameSync(tmp, target); } catch {}
  const p = Atomics.load(flags, 1);
  if (p !== last) { last = p; since = Date.now(); continue; }
  if (Date.now() - since < 250) continue;
  try { fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK)); Atomics.add(flags, 2, 1); } catch {}
  since = Date.now();
}
`;

async function hangsWhileSwapped(name: string, content: string, read: (path: string) => unknown, ms = 1500): Promise<{ hangs: number; reads: number; refusals: number }> {
  const dir = tempDir('ralf-fifo-swap-');
  mkdirSync(join(dir, '.planning'), { recursive: true });
  const regular = join(dir, 'regular');
  const fifo = join(dir, 'fifo');
  writeFileSync(regular, content);
  expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
  const target = join(dir, name);
  writeFileSync(target, content);
  const ctrl = new SharedArrayBuffer(12);
  const flags = new Int32Array(ctrl);
  const worker = new Worker(SWAPPER, { eval: true, workerData: { target, regular, fifo, ctrl } });
  let reads = 0;
  let refusals = 0;
  const end = Date.now() + ms;
  try {
    while (Date.now() < end) {
      try {
        read(target);
        reads++;
      } catch {
        refusals++;
      }
      Atomics.add(flags, 1, 1);
    }
  } finally {
    Atomics.store(flags, 0, 1);
    await worker.terminate();
  }
  return { hangs: Atomics.load(flags, 2), reads, refusals };
}

describe.runIf(process.platform === 'linux')('a path swapped for a FIFO while it is read', () => {
  const cases: Array<[string, string, string, (p: string) => unknown]> = [
    ['plan', '01-01-PLAN.md', '---\nphase: 01\n---\n# Plan\n', (p) => readPlanText(p)],
    ['SUMMARY.md', '01-01-SUMMARY.md', '# Summary\n', (p) => readSummaryText(p)],
    ['config', 'config.json', '{"ralf_lite": {}}\n', (p) => readJsonFile(p)],
    ['seed file (PRD checklist)', 'prd.md', '# PRD\n\n- [ ] one item\n', (p) => detectRunTarget(p)],
  ];
  it.each(cases)('%s: never blocks; a FIFO is refused, a file is read', async (_what, name, content, read) => {
    const r = await hangsWhileSwapped(name, content, read);
    expect(r.hangs).toBe(0);
    // Both shapes were met: the race was really run.
    expect(r.reads).toBeGreaterThan(0);
    expect(r.refusals).toBeGreaterThan(0);
  });
});
