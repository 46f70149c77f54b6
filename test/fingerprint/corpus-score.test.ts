import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { cliPath, sharedDir } from '../helpers/cli.js';

const corpus = join(sharedDir, 'fixtures', 'verify-outputs');
const scorer = join(corpus, 'score.mjs');

describe('fingerprint quality on the labelled corpus of real outputs', () => {
  it.skipIf(!existsSync(scorer))(
    'F1 >= 0.97 and every sequence step fingerprints differently',
    async () => {
      const r = await execa(process.execPath, [scorer, corpus, '--concurrency', '2', '--', process.execPath, cliPath, 'fingerprint'], { reject: false });
      expect(r.exitCode, String(r.stderr)).toBe(0);
      const out = String(r.stdout);
      const f1 = /fingerprint-f1: ([\d.]+)/.exec(out);
      expect(f1, out).not.toBeNull();
      expect(Number(f1![1]), out).toBeGreaterThanOrEqual(0.97);
      const seq = /sequences: (\d+)\/(\d+) consecutive steps/.exec(out);
      expect(seq, out).not.toBeNull();
      expect(seq![1]).toBe(seq![2]);
    },
    300_000,
  );
});
