/**
 * Finds the commits of a plan's tasks by GSD's per-task commit convention,
 * `{type}({plan-id}): {task name}` (ralf run writes `feat({plan-id}): {name}`): the newest commit
 * whose subject names the plan id in parentheses and the task's name. One git process.
 */
import { runGit } from './run-git.js';

/** How far back to look: a plan's commits are recent. */
const COMMITS_READ = 500;

export async function findTaskCommits(root: string, planId: string, tasks: ReadonlyArray<{ number: number; name: string }>): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  const r = await runGit(['log', `-n${COMMITS_READ}`, '--format=%h%x00%s', `--grep=(${planId})`, '--fixed-strings'], { cwd: root, okCodes: [0, 128] });
  if (r.code !== 0) return out;
  const commits = r.stdout
    .toString('utf8')
    .split('\n')
    .filter((l) => l.includes('\0'))
    .map((l) => {
      const [hash = '', subject = ''] = l.split('\0');
      return { hash, subject: subject.toLowerCase() };
    });
  for (const t of tasks) {
    const name = t.name.replace(/^\s*task\s+\d+\s*[:.)-]\s*/i, '').trim().toLowerCase();
    if (name === '') continue;
    const hit = commits.find((c) => c.subject.includes(`(${planId.toLowerCase()})`) && c.subject.includes(name));
    if (hit) out.set(t.number, hit.hash);
  }
  return out;
}
