/**
 * What the snapshot left out reaches the verify answer: untracked files above
 * `snapshot.max_untracked_file_mb` (listed, with a warning), through the real CLI.
 */
import { closeSync, ftruncateSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { autoTask, PLAN_REL, Project } from '../engine/project.js';

const MB = 1024 * 1024;

describe('the verify answer and the snapshot', () => {
  it('lists untracked files above the configured cap once, with a warning; text output shows it', async () => {
    // A failing check: every verify runs (a passed task answers without running anything).
    const loop = { max_iterations: 10, error_fingerprint_repeats: 10, no_progress_repeats: 10 };
    const p = new Project({ tasks: autoTask({ name: 'Task 1: Build', verify: 'sh -c "exit 1"' }), config: { ...loop, snapshot: { max_untracked_file_mb: 1 } } });
    const fd = openSync(join(p.dir, 'dump.bin'), 'w');
    ftruncateSync(fd, 2 * MB);
    closeSync(fd);
    const r = await p.verify(1);
    expect(r.code).toBe(10);
    expect(r.json.snapshot).toEqual({
      untracked_files: 1,
      skipped_large_files: [{ path: 'dump.bin', bytes: 2 * MB }],
      warnings: [expect.stringContaining('dump.bin (2 MB)')],
    });
    const text = await p.run(['task', 'verify', PLAN_REL, '1']);
    expect(String(text.stdout)).toMatch(/warning: left out of the snapshot, untracked and above snapshot\.max_untracked_file_mb: dump\.bin \(2 MB\)/);
    // The default cap (50 MB) keeps it in.
    p.write('.planning/config.json', JSON.stringify({ ralf_lite: loop }));
    const again = await p.verify(1);
    expect(again.json.snapshot).toEqual({ untracked_files: 1, skipped_large_files: [], warnings: [] });
  });
});
