/**
 * Symbolic links that leave the project are never written through: a SUMMARY.md committed as
 * a relative link out of the repository, `.planning/ralf` linked elsewhere (state, logs,
 * `ralf run`), a `.claude/ralf-lite` link planted before `ralf install --local`. Each is
 * refused with exit 2 naming the link, the link's target is untouched, and no message tells
 * the user to delete a file behind a link. Real CLI, real links.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PLAN_REL, Project, SUMMARY_REL, cleanupTempDirs, scratch, task, treeListing } from './helpers.js';

afterAll(cleanupTempDirs);

function project(): Project {
  return new Project({ tasks: [task('Task 1: Summarise', 'sh -c "exit 1"')], git: false });
}

describe.concurrent('links out of the project are refused, never written through', () => {
  it('ralf report: a SUMMARY.md that is a relative link out of the project → exit 2 naming it; the target unchanged', async () => {
    const p = project();
    const outside = scratch('ralf-outside-');
    writeFileSync(join(outside, 'victim.md'), '# not yours\n');
    symlinkSync(join('..', '..', '..', '..', outside.split('/').at(-1)!, 'victim.md'), p.path(SUMMARY_REL));
    // The link resolves (the scratch dirs are siblings): a relative link as a repository could hold.
    expect(readFileSync(p.path(SUMMARY_REL), 'utf8')).toBe('# not yours\n');
    const r = await p.run(['report', PLAN_REL]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(p.path(SUMMARY_REL));
    expect(r.stderr).toMatch(/symbolic link .* outside/);
    expect(r.stderr).not.toMatch(/\bdelete\b|\brm\b/i);
    expect(readFileSync(join(outside, 'victim.md'), 'utf8')).toBe('# not yours\n');
  });

  it('a link that stays inside the project is followed as before', async () => {
    const p = project();
    p.write('docs/real-summary.md', '# Summary\n');
    symlinkSync(join('..', '..', '..', 'docs', 'real-summary.md'), p.path(SUMMARY_REL));
    const r = await p.run(['report', PLAN_REL]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(p.path('docs/real-summary.md'), 'utf8')).toContain('## RALF Lite Loop Report');
  });

  it('ralf task verify: .planning/ralf linked outside → exit 2 naming the link; nothing written there', async () => {
    const p = project();
    const outside = scratch('ralf-outside-state-');
    symlinkSync(outside, p.path('.planning/ralf'));
    const v = await p.verify(1);
    expect(v.code).toBe(2);
    // --json: the error is the one document on stdout.
    expect(JSON.stringify(v.json)).toContain(p.path('.planning/ralf'));
    expect(JSON.stringify(v.json)).not.toMatch(/\bdelete\b/i);
    expect(treeListing(outside)).toEqual({});
  });

  it('ralf run: .planning/ralf linked outside → exit 2 before any agent runs', async () => {
    const p = project();
    const outside = scratch('ralf-outside-run-');
    symlinkSync(outside, p.path('.planning/ralf'));
    const r = await p.run(['run', PLAN_REL, '--agent', 'sh -c "touch agent-ran"', '--json']);
    expect(r.code).toBe(2);
    expect(r.stderr + r.stdout).toContain(p.path('.planning/ralf'));
    expect(p.exists('agent-ran')).toBe(false);
    expect(treeListing(outside)).toEqual({});
  });

  it('a state file behind a link: the error never says to delete it', async () => {
    const p = project();
    const outside = scratch('ralf-outside-file-');
    writeFileSync(join(outside, 'precious.json'), 'my precious, not JSON\n');
    mkdirSync(p.path('.planning/ralf'), { recursive: true });
    symlinkSync(join(outside, 'precious.json'), p.path('.planning/ralf/01-01.json'));
    const v = await p.verify(1);
    expect(v.code).toBe(2);
    expect(JSON.stringify(v.json)).toMatch(/symbolic link/);
    expect(JSON.stringify(v.json)).not.toMatch(/\bdelete (it|the file)\b/i);
    expect(readFileSync(join(outside, 'precious.json'), 'utf8')).toBe('my precious, not JSON\n');
  });

  it('ralf install --local: a pre-existing .claude/ralf-lite link out of the project → exit 2, its target untouched', async () => {
    const p = project();
    const outside = scratch('ralf-outside-install-');
    writeFileSync(join(outside, 'keep.txt'), 'mine\n');
    mkdirSync(p.path('.claude'));
    symlinkSync(outside, p.path('.claude/ralf-lite'));
    const before = treeListing(outside);
    const r = await p.run(['install', '--local', '--claude']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(p.path('.claude/ralf-lite'));
    expect(treeListing(outside)).toEqual(before);
    const u = await p.run(['uninstall', '--local', '--claude']);
    expect([0, 2]).toContain(u.code);
    expect(treeListing(outside)).toEqual(before);
  });
});
