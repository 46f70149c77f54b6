import { describe, expect, it } from 'vitest';
import { committedNote, lostNote, restoreFromStartCommand, UNCOMMITTED_LISTED, uncommittedAtStart, uncommittedCommitted, uncommittedLost } from '../../src/engine/core/uncommitted.js';

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
});
