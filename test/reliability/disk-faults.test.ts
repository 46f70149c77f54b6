/**
 * The state directory cannot be written (a file where the directory belongs, immutable
 * files, a full disk): `ralf task verify` fails with a clear error naming the path (exit 1,
 * no "internal error"), the previous state is intact byte-for-byte, nothing half-written
 * or locked is left, and once the fault is gone the next verify records exactly count + 1.
 * Root ignores permission bits, so faults are made with chattr +i and a small tmpfs
 * (skipped, with the reason, where the sandbox does not allow them).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ENDLESS, PLAN_REL, Project, STATE_REL, cleanupTempDirs, scratch, task } from './helpers.js';

afterAll(cleanupTempDirs);

function project(): Project {
  return new Project({ tasks: [task('Task 1: Disk', 'sh -c "echo Error: nope >&2; exit 1"')], config: ENDLESS, git: false });
}

/** Every file under .planning/ralf with its bytes (the state, the log, the plan cache). */
function stateFiles(p: Project): Record<string, string> {
  const dir = p.path('.planning/ralf');
  return Object.fromEntries(readdirSync(dir).sort().map((n) => [n, readFileSync(join(dir, n), 'latin1')]));
}

async function failsClearly(p: Project, code: string, path: string): Promise<void> {
  const r = await p.run(['task', 'verify', PLAN_REL, '1', '--json']);
  expect(r.code).toBe(1);
  expect(JSON.parse(r.stdout).error).toMatchObject({ kind: 'io', code, path });
  // --json: the error is the one document on stdout; stderr stays quiet.
  expect(r.stderr).toBe('');
  const message = JSON.parse(r.stdout).error.message as string;
  expect(message).toContain(path);
  expect(message).toContain(`(${code})`);
  expect(r.stdout).not.toMatch(/internal error|bug in ralf|\n\s+at /);
}

async function resumes(p: Project, count: number): Promise<void> {
  const r = await p.verify(1);
  expect(r.code).toBe(10);
  expect(r.json.iteration).toBe(count + 1);
  expect(p.iterations(1)).toBe(count + 1);
}

const chattrWorks = (() => {
  const probe = join(scratch('ralf-rel-probe-'), 'f');
  writeFileSync(probe, '');
  const ok = spawnSync('chattr', ['+i', probe]).status === 0;
  if (ok) spawnSync('chattr', ['-i', probe]);
  return ok;
})();

const tmpfsWorks = (() => {
  const dir = scratch('ralf-rel-probe-');
  const ok = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]).status === 0;
  if (ok) spawnSync('umount', ['-l', dir]);
  return ok;
})();

describe('an unwritable .planning/ralf', () => {
  it('.planning/ralf is a file, not a directory: exit 1 naming the path (ENOTDIR); the file is untouched', async () => {
    const p = project();
    p.write('.planning/ralf', 'not a directory\n');
    await failsClearly(p, 'ENOTDIR', p.path(STATE_REL));
    expect(readFileSync(p.path('.planning/ralf'), 'utf8')).toBe('not a directory\n');
    rmSync(p.path('.planning/ralf'));
    await resumes(p, 0);
  });

  it.skipIf(!chattrWorks)('an immutable state file (chattr +i): exit 1 naming it (EPERM); state and log intact, no temp or lock left', async () => {
    const p = project();
    await resumes(p, 0);
    const before = stateFiles(p);
    spawnSync('chattr', ['+i', p.path(STATE_REL)]);
    try {
      await failsClearly(p, 'EPERM', p.path(STATE_REL));
      expect(stateFiles(p)).toEqual(before);
    } finally {
      spawnSync('chattr', ['-i', p.path(STATE_REL)]);
    }
    await resumes(p, 1);
  });

  it.skipIf(!chattrWorks)('an immutable .planning/ralf directory: exit 1 naming the lock (EPERM); state intact', async () => {
    const p = project();
    await resumes(p, 0);
    const before = stateFiles(p);
    spawnSync('chattr', ['+i', p.path('.planning/ralf')]);
    try {
      await failsClearly(p, 'EPERM', p.path('.planning/ralf/01-01.lock'));
      expect(stateFiles(p)).toEqual(before);
    } finally {
      spawnSync('chattr', ['-i', p.path('.planning/ralf')]);
    }
    await resumes(p, 1);
  });

  it.skipIf(!tmpfsWorks)('a full disk (64 KiB tmpfs): exit 1 naming the file (ENOSPC) with 0 and with 1 free page; state intact; then it resumes', async () => {
    const p = project();
    await resumes(p, 0);
    const saved = stateFiles(p);
    const dir = p.path('.planning/ralf');
    rmSync(dir, { recursive: true });
    mkdirSync(dir);
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]).status).toBe(0);
    try {
      for (const [name, bytes] of Object.entries(saved)) writeFileSync(join(dir, name), Buffer.from(bytes, 'latin1'));
      // Fill every page with a filler file.
      const filler = join(dir, 'filler');
      let size = 0;
      for (;;) {
        try {
          writeFileSync(filler, Buffer.alloc(4096), { flag: 'a' });
          size += 4096;
        } catch {
          break;
        }
      }
      const full = { ...saved, filler: readFileSync(filler, 'latin1') };
      // Nothing free: the lock itself cannot be written (and is not left behind).
      await failsClearly(p, 'ENOSPC', join(dir, '01-01.lock'));
      expect(stateFiles(p)).toEqual(full);
      // One page free: the lock fits, the new state does not.
      writeFileSync(filler, Buffer.alloc(size - 4096));
      const onePage = stateFiles(p);
      await failsClearly(p, 'ENOSPC', p.path(STATE_REL));
      expect(stateFiles(p)).toEqual(onePage);
      // Space again: the loop continues at iteration 2.
      rmSync(filler);
      await resumes(p, 1);
    } finally {
      spawnSync('umount', ['-l', dir]);
    }
  });

  it('the log path is blocked (a directory at 01-01.jsonl): the iteration is recorded in the state and answered; a warning names the log', async () => {
    const p = project();
    await resumes(p, 0);
    rmSync(p.path('.planning/ralf/01-01.jsonl'));
    mkdirSync(p.path('.planning/ralf/01-01.jsonl'));
    const r = await p.verify(1);
    // JSON first, log second (docs/ENGINE.md): the counted iteration's verdict still reaches the agent.
    expect(r.code).toBe(10);
    expect(r.json.iteration).toBe(2);
    // --json: the warning is the document's log_warning and stderr stays quiet.
    expect(r.json.log_warning).toContain(`cannot append to ${p.path('.planning/ralf/01-01.jsonl')}: EISDIR`);
    expect(r.stderr).toBe('');
    expect(p.iterations(1)).toBe(2);
    expect(p.exists('.planning/ralf/01-01.lock')).toBe(false);
    rmSync(p.path('.planning/ralf/01-01.jsonl'), { recursive: true });
    await resumes(p, 2);
  });
});
