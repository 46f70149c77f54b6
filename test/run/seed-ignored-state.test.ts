/**
 * A user report: `ralf run` on a seed format died with "internal error" when the loop's state
 * directory is gitignored. Each seed format's example, with `.planning/ralf/` (or all of
 * `.planning/`) in .gitignore, run as its README says: every looped item passes, its
 * write-back is committed, the state stays out of git.
 */
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, repoRoot, tempDir } from '../helpers/cli.js';
import { git, ofType, runResultOf, runStableCli } from './helpers.js';

const FORMATS: Array<{ example: string; target: string; ignore: string }> = [
  { example: 'prd-checklist', target: 'PRD.md', ignore: '.planning/ralf/' },
  { example: 'ralph-json', target: 'ralph.json', ignore: '.planning/' },
  { example: 'requirements', target: 'requirements.json', ignore: '.planning/ralf/' },
  { example: 'task-files', target: 'tasks', ignore: '.planning/' },
];

describe.concurrent('ralf run with the loop state gitignored', () => {
  for (const f of FORMATS) {
    it(`${f.example}: ${f.ignore} in .gitignore`, async ({ expect }) => {
      const dir = tempDir(`ralf-ignored-${f.example}-`);
      cpSync(join(repoRoot, 'examples', f.example), dir, { recursive: true });
      writeFileSync(join(dir, '.gitignore'), `${f.ignore}\n`);
      git(dir, 'init', '-q');
      for (const [k, v] of [['user.name', 'ralf test'], ['user.email', 't@example.invalid'], ['commit.gpgsign', 'false'], ['core.hooksPath', '/dev/null']]) git(dir, 'config', k!, v!);
      git(dir, 'add', '-A');
      git(dir, 'commit', '-qm', 'init');
      const r = runResultOf(await runStableCli(['run', f.target, '--agent', 'sh scripted-agent.sh', '--json'], { cwd: dir, env: cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.xdg') }), timeout: 90_000 }));
      expect(r.stderr).not.toMatch(/internal error/);
      // 0: every item finished; 20: the example ends at a human checkpoint.
      expect([0, 20], r.stdout.slice(-2000)).toContain(r.exitCode);
      const looped = ofType(r.events, 'task_end').filter((e) => e.iterations > 0);
      expect(looped.length).toBeGreaterThan(0);
      expect(looped.map((e) => e.outcome)).toEqual(looped.map(() => 'passed'));
      expect(git(dir, 'ls-files', '--', '.planning/ralf')).toBe('');
      expect(git(dir, 'status', '--porcelain')).toBe('');
    });
  }
});
