/**
 * GSD Core `tracker-id` tasks: their real content comes from an external tracker through
 * `gsd_run task resolve-content --plan <path> --task-id <id> --raw` (GSD Core's
 * workflows/execute-plan.md). This is the I/O edge; decide.ts decides on the answers.
 *   exit 0, {resolved: true, content}  → the content's verify/done/acceptance_criteria are the checks
 *   exit 0, {resolved: false, reason}  → GSD reads the PLAN.md task, and so does the loop
 *   non-zero exit, bad JSON, no gsd_run → the task is refused (never the PLAN.md text instead)
 */
import { createRequire } from 'node:module';
import { relative } from 'node:path';
import { criteriaFromRange } from './criteria.js';
import type { ProgramResolver } from './command-like.js';
import type { TrackerResolution } from './decide.js';
import { lineIndex } from './lines.js';
import type { ParsedPlan } from './parsed.js';

const TIMEOUT_MS = 30_000;

interface ResolvedContent {
  verify?: unknown;
  done?: unknown;
  acceptanceCriteria?: unknown;
}

function criteriaOf(content: ResolvedContent, resolves: ProgramResolver): TrackerResolution {
  const parts: Array<[string, string]> = [];
  if (typeof content.verify === 'string') parts.push(['verify', content.verify]);
  if (Array.isArray(content.acceptanceCriteria)) parts.push(['acceptance_criteria', content.acceptanceCriteria.filter((x) => typeof x === 'string').map((x) => `- ${x}`).join('\n')]);
  if (typeof content.done === 'string') parts.push(['done', content.done]);
  const criteria = parts.flatMap(([element, text]) => criteriaFromRange(text, 0, text.length, { lines: lineIndex(text), element: `tracker ${element}`, mode: element === 'verify' ? 'verify' : 'done', resolves }));
  return { kind: 'resolved', criteria };
}

/** Resolves every tracker-id of a plan (none: an empty map, and no process started). */
export function resolveTrackers(parsed: ParsedPlan, projectRoot: string, resolves: ProgramResolver, env: NodeJS.ProcessEnv = process.env): Map<string, TrackerResolution> {
  const out = new Map<string, TrackerResolution>();
  const ids = parsed.tasks.filter((t) => !t.type?.toLowerCase().startsWith('checkpoint')).map((t) => t.attributes['tracker-id']).filter((id): id is string => id !== undefined);
  if (ids.length === 0 || !resolves('gsd_run')) return out;
  // Loaded here, not at the top: node:child_process brings the stream and net modules (~4 ms of
  // every `ralf plan` and `ralf report`), and only a plan with tracker-id tasks starts gsd_run.
  const { spawnSync } = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
  for (const id of new Set(ids)) {
    const r = spawnSync('gsd_run', ['task', 'resolve-content', '--plan', relative(projectRoot, parsed.path), '--task-id', id, '--raw'], { cwd: projectRoot, env, encoding: 'utf8', timeout: TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 4 * 1024 * 1024 });
    const stderr = (r.stderr ?? '').trim().split('\n').slice(-3).join(' ');
    if (r.error || r.status !== 0) {
      out.set(id, { kind: 'refused', why: `gsd_run task resolve-content failed (${r.error ? r.error.message : `exit ${r.status ?? r.signal}`})${stderr ? `: ${stderr}` : ''}` });
      continue;
    }
    let answer: { resolved?: unknown; reason?: unknown; content?: unknown };
    try {
      answer = JSON.parse(r.stdout);
    } catch {
      out.set(id, { kind: 'refused', why: 'gsd_run task resolve-content printed no JSON answer' });
      continue;
    }
    if (answer.resolved === true && typeof answer.content === 'object' && answer.content !== null) out.set(id, criteriaOf(answer.content as ResolvedContent, resolves));
    else if (answer.resolved === false) out.set(id, { kind: 'inline', reason: typeof answer.reason === 'string' ? answer.reason : 'not-applicable' });
    else out.set(id, { kind: 'refused', why: 'gsd_run task resolve-content gave an answer without resolved: true/false' });
  }
  return out;
}
