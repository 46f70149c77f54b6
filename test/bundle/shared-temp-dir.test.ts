/**
 * Another local user can create anything in the shared temp dir before ralf runs. ralf keeps
 * nothing there (the V8 code cache that lived in `$TMPDIR/ralf-lite-v8-<uid>/` was removed), so a
 * pre-created directory with planted symlinks is never written through, and no run leaves a file
 * behind for the next one to trust.
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { autoTask, PLAN_REL, Project } from '../engine/project.js';
import { tempDir } from '../helpers/cli.js';

describe('the shared temp dir', () => {
  it('a pre-created attacker directory with planted symlinks is never written through', async () => {
    const tmp = tempDir('ralf-shared-tmp-');
    const victim = join(tempDir('ralf-victim-'), 'important.txt');
    writeFileSync(victim, 'precious\n');
    const uid = process.getuid?.() ?? 0;
    const planted = join(tmp, `ralf-lite-v8-${uid}`);
    mkdirSync(planted, { mode: 0o777 });
    for (const name of ['status', 'task', 'config', 'report', 'plan', 'planning']) {
      symlinkSync(victim, join(planted, `${name}-000000000000.bin`));
      symlinkSync(victim, join(planted, `${name}.bin`));
    }
    const before = readdirSync(tmp).sort();
    const p = new Project({ tasks: autoTask({ name: 'Task 1: Edit', verify: 'sh -c "exit 1"' }), config: { max_iterations: 5 } });
    const env = p.env({ TMPDIR: tmp });
    for (let i = 0; i < 2; i++) {
      for (const args of [['status', '--json'], ['config', '--json'], ['task', 'verify', PLAN_REL, '1', '--json'], ['plan', PLAN_REL, '--json'], ['report', PLAN_REL, '--json']]) {
        const r = await p.run(args, { env });
        expect(r.exitCode, `${args.join(' ')}: ${String(r.stderr)}`).not.toBe(1);
      }
    }
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(readdirSync(planted).every((n) => lstatSync(join(planted, n)).isSymbolicLink())).toBe(true);
    expect(readdirSync(planted)).toHaveLength(12);
    expect(readdirSync(tmp).sort()).toEqual(before);
  });
});
