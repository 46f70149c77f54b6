import { describe, expect, it } from 'vitest';
import { committedNote, lostNote, restoreFromStartCommand, restoreStagingCommand, stagingChanged, stagingNote, UNCOMMITTED_LISTED, uncommittedAtStart, uncommittedCommitted, uncommittedLost, userPathsAtReset } from '../../src/engine/core/uncommitted.js';
import { reduce } from '../../src/engine/core/reducer.js';
import { ctx, freshLoop } from './helpers.js';

describe('the user\'s uncommitted work at the task\'s start (pure)', () => {
  it('remembers a bounded, sorted list; none when the tree was clean', () => {
    expect(uncommittedAtStart('abc', [])).toBeNull();
    const many = Array.from({ length: UNCOMMITTED_LISTED + 3 }, (_, i) => `f${String(i).padStart(3, '0')}`).reverse();
    const u = uncommittedAtStart('abc', many)!;
    expect(u.paths).toHaveLength(UNCOMMITTED_LISTED);
    expect(u.paths[0]).toBe('f000');
    expect(u.more).toBe(3);
  });

  it('lost: the remembered paths that no longer differ from the start\'s HEAD', () => {
    const u = uncommittedAtStart('abc', ['USER.md', 'notes.txt', 'src/a.js'])!;
    expect(uncommittedLost(u, ['src/a.js'])).toEqual(['USER.md', 'notes.txt']);
    expect(uncommittedLost(u, ['USER.md', 'notes.txt', 'src/a.js'])).toEqual([]);
  });

  it('the restore command quotes for a shell and takes a pattern-like name literally', () => {
    expect(restoreFromStartCommand('f859', ['USER.md', 'my notes.txt', 'a*.md'])).toBe("git restore --source=f859 -- USER.md 'my notes.txt' ':(literal)a*.md'");
    expect(lostNote(['USER.md'], 'git restore --source=f859 -- USER.md')).toContain('put it back with `git restore --source=f859 -- USER.md`');
  });

  it('committed: the remembered paths HEAD now holds as the start snapshot had them', () => {
    const u = uncommittedAtStart('abc', ['USER.md', 'notes.txt'])!;
    expect(uncommittedCommitted(u, ['USER.md'])).toEqual(['notes.txt']);
    expect(committedNote(['notes.txt'], 'abc..def')).toContain('`git log --stat abc..def`');
  });

  it('keeps the user\'s index as a tree when there is work to watch', () => {
    expect(uncommittedAtStart('abc', ['USER.md'], 'idx')).toEqual({ head: 'abc', paths: ['USER.md'], more: 0, index: 'idx' });
    expect(uncommittedAtStart('abc', ['USER.md'], null)).toEqual({ head: 'abc', paths: ['USER.md'], more: 0 });
  });

  it('staging: the remembered paths whose index entry differs from the start\'s; its command restores the index only, literally', () => {
    const u = uncommittedAtStart('abc', ['STAGED.md', 'USER.md', 'notes.txt'], 'idx')!;
    // src/units.js is the task's own file: never named.
    expect(stagingChanged(u, ['USER.md', 'notes.txt', 'src/units.js'])).toEqual(['USER.md', 'notes.txt']);
    expect(stagingChanged(u, [])).toEqual([]);
    expect(restoreStagingCommand('idx', ['USER.md', 'my notes.txt', 'a*.md'])).toBe("git restore --staged --source=idx -- USER.md 'my notes.txt' ':(literal)a*.md'");
    expect(stagingNote(['USER.md'], 'git restore --staged --source=idx -- USER.md')).toContain('put the user\'s staging back with `git restore --staged --source=idx -- USER.md`');
  });

  it('at a reset: the paths differing from HEAD less the loop\'s own earlier attempts, unless they held the user\'s work before', () => {
    const before = uncommittedAtStart('abc', ['USER.md', 'shared.js'])!;
    // src/units.js: the loop's attempt; shared.js: the user's, also edited by the loop; notes.txt: appeared untouched by the loop.
    expect(userPathsAtReset(['USER.md', 'notes.txt', 'shared.js', 'src/units.js'], ['shared.js', 'src/units.js'], before)).toEqual(['USER.md', 'notes.txt', 'shared.js']);
    // Nothing known of the loop's changes: only what was the user's before.
    expect(userPathsAtReset(['USER.md', 'src/units.js'], null, before)).toEqual(['USER.md']);
    expect(userPathsAtReset(['USER.md', 'src/units.js'], null, null)).toEqual([]);
    expect(userPathsAtReset(['USER.md', 'src/units.js'], ['src/units.js'], null)).toEqual(['USER.md']);
  });

  it('the reducer: a reset records the user\'s work it is given (was: dropped), an approval keeps the loop\'s', () => {
    const u = uncommittedAtStart('abc', ['USER.md'], 'idx')!;
    const started = reduce(freshLoop(), { type: 'started', now: '2026-01-01T00:00:00.000Z', start_ref: 'start1', uncommitted_at_start: u }, ctx()).state;
    const reset = reduce(started, { type: 'reset', now: '2026-01-01T00:01:00.000Z', start_ref: 'start2', uncommitted_at_start: { ...u, paths: ['notes.txt'] } }, ctx()).state;
    expect(reset.uncommitted_at_start?.paths).toEqual(['notes.txt']);
    expect(reduce(started, { type: 'reset', now: '2026-01-01T00:01:00.000Z', start_ref: 'start2' }, ctx()).state.uncommitted_at_start).toBeUndefined();
    const stopped = { ...started, status: 'stopped' as const, stop_reason: 'rule4_architectural' as const };
    expect(reduce(stopped, { type: 'approved', now: '2026-01-01T00:02:00.000Z', findings: [] }, ctx()).state.uncommitted_at_start).toEqual(u);
  });
});
