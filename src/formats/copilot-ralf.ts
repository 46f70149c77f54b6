/**
 * copilot_ralf's habits around a PRD checklist (pure except `prdContext`, which reads two files):
 *   - its decision matrix: the agent's promise × its own `[x]` in the PRD × files changed →
 *     VERIFIED / COMPLETED / PARTIAL / SUSPICIOUS / INCOMPLETE / NO PROGRESS (BLOCKED, TIMEOUT).
 *     ralf's checks still decide pass or retry; the label says what the agent's signals were.
 *   - its context files: AGENTS.md (project instructions) and the "Learnings" of progress.md,
 *     read fresh into every iteration's prompt;
 *   - learnings appended after each item (what the loop found out), for the next items.
 */
import { failed } from '../engine/core/check-status.js';
import { dirname, join } from 'node:path';
import type { IterationRecord, LoopState } from '../engine/core/types.js';
import { readUserTextIfExists } from '../fs/read-user-text.js';

export type CopilotLabel = 'VERIFIED' | 'COMPLETED' | 'PARTIAL' | 'SUSPICIOUS' | 'INCOMPLETE' | 'NO PROGRESS' | 'BLOCKED' | 'TIMEOUT';

export interface AgentSignals {
  /** The agent ended with `<ralph>TASK_DONE</ralph>`. */
  promise: boolean;
  /** The agent marked its own item `[x]` in the PRD. */
  marked: boolean;
  /** Files other than the PRD changed in the iteration. */
  files_changed: boolean;
  blocked?: boolean;
  timed_out?: boolean;
}

/** copilot_ralf's decision matrix (its ralph-loop.sh, in order). */
export function copilotLabel(s: AgentSignals): CopilotLabel {
  if (s.timed_out) return 'TIMEOUT';
  if (s.blocked) return 'BLOCKED';
  if (s.promise && s.marked) return 'VERIFIED';
  if (s.marked) return 'COMPLETED';
  if (s.promise) return s.files_changed ? 'PARTIAL' : 'SUSPICIOUS';
  return s.files_changed ? 'INCOMPLETE' : 'NO PROGRESS';
}

const MAX_CONTEXT_CHARS = 8000;

function readSmall(path: string): string | null {
  try {
    const text = readUserTextIfExists(path, { what: 'AGENTS.md', maxBytes: 1024 * 1024 });
    if (text === null) return null;
    return text.length > MAX_CONTEXT_CHARS ? `${text.slice(0, MAX_CONTEXT_CHARS)}\n… (truncated)` : text;
  } catch {
    return null;
  }
}

function readLog(path: string): string | null {
  try {
    return readUserTextIfExists(path, { what: 'progress log', maxBytes: 1024 * 1024 });
  } catch {
    return null;
  }
}

/**
 * What a progress log says the next iteration should know (newest last): a `## Learnings` (or
 * snarktank's `## Codebase Patterns`) section, `- Learnings: ...` lines, and a learnings label
 * with a list under it (snarktank's progress.txt: `- **Learnings for future iterations:**` and
 * its indented bullets).
 */
export function learningsOf(progress: string): string {
  const lines = progress.split(/\r?\n/);
  const out: string[] = [];
  let inSection = false;
  /** Indent of a learnings label whose indented list is being read, else null. */
  let labelIndent: number | null = null;
  for (const line of lines) {
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      inSection = /^(?:learnings|codebase patterns)\b/i.test(heading[2]!.trim());
      labelIndent = null;
      continue;
    }
    const indent = /^\s*/.exec(line)![0].length;
    if (labelIndent !== null) {
      if (line.trim() !== '' && indent > labelIndent) {
        out.push(line.trim());
        continue;
      }
      labelIndent = null;
    }
    if (inSection && line.trim() !== '' && !/^-{3,}$/.test(line.trim())) out.push(line);
    else if (/^\s*[-*]\s+(?:\*\*)?learnings?\b[^:]{0,40}:(?:\*\*)?\s*$/i.test(line)) labelIndent = indent;
    else if (/^\s*[-*]\s+(?:\*\*)?learnings?(?:\*\*)?\s*:/i.test(line)) out.push(line.trim());
  }
  return out.slice(-40).join('\n');
}

/** The learnings of the progress log beside a target file (`progress.md`, else `progress.txt`), for every iteration's prompt. */
export function progressLearnings(dir: string): Record<string, string> {
  for (const name of ['progress.md', 'progress.txt']) {
    // The whole log (up to 1 MB), not its first page: the newest learnings are at its end.
    const progress = readLog(join(dir, name));
    const learnings = progress ? learningsOf(progress).trim() : '';
    if (learnings) return { learnings };
  }
  return {};
}

/**
 * The context copilot_ralf gives every iteration: AGENTS.md (the PRD's directory, its parent
 * for `.ralph/prd.md`, or the project root) and progress.md's learnings. Read on every call.
 */
export function prdContext(prdPath: string, projectRoot: string): Record<string, string> {
  const out: Record<string, string> = {};
  const dir = dirname(prdPath);
  for (const candidate of [join(dir, 'AGENTS.md'), join(dirname(dir), 'AGENTS.md'), join(projectRoot, 'AGENTS.md')]) {
    const text = readSmall(candidate);
    if (text && text.trim()) {
      out['project-instructions'] = text.trim();
      break;
    }
  }
  return { ...out, ...progressLearnings(dir) };
}

/** What the loop learned from an item, one line for progress.md (pure). */
export function learningFrom(loop: LoopState | null | undefined, verdict: 'pass' | 'stop', detail: string | null | undefined): string {
  const its: IterationRecord[] = loop?.iterations ?? [];
  const last = its[its.length - 1];
  if (verdict === 'pass') {
    if (its.length <= 1) return 'done in one iteration; its checks pass';
    const fixed = its.slice(0, -1).flatMap((it) => it.checks.filter(failed).map((c) => c.command));
    return `passed after ${its.length} iterations; failing first: ${[...new Set(fixed)].slice(0, 3).join('; ') || 'its checks'}`;
  }
  const failing = (last?.checks ?? []).filter(failed);
  const why = failing.map((c) => `\`${c.command}\`: ${c.output_tail.split(/\r?\n/).find((l) => /error|fail|not ok|assert/i.test(l))?.trim() ?? `exit ${c.exit_code}`}`).slice(0, 2);
  return `not done: ${why.join('; ') || (detail ?? 'the loop stopped').split(/\r?\n/)[0]}`;
}
