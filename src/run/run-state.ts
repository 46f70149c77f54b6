/**
 * What `ralf run` remembers beyond the engine's loop state, per plan, in
 * `.planning/ralf/run/<plan-id>.json` (a subdirectory: the engine owns the `*.json` files
 * directly under `.planning/ralf/`): the human's answers at checkpoints
 * (`--resume-signal`), and the tasks that ran once without the loop or were committed.
 * Written atomically; a missing or unreadable file means "nothing remembered".
 */
import { readTextIfExists } from '../fs/read-if-exists.js';
import { ensureStateDir } from '../fs/inside-project.js';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';

export interface RunTaskMemory {
  outcome: 'passed' | 'ran_once' | 'blocked';
  commit: string | null;
  at: string;
}

export interface RunMemory {
  version: 1;
  plan_id: string;
  checkpoints: Record<string, { reply: string; at: string }>;
  tasks: Record<string, RunTaskMemory>;
}

export function runDir(projectRoot: string): string {
  return join(projectRoot, '.planning', 'ralf', 'run');
}

export function runMemoryPath(projectRoot: string, planId: string): string {
  return join(runDir(projectRoot), `${planId}.json`);
}

export function agentLogPath(projectRoot: string, planId: string, task: number | null, iteration: number, attempt: number): string {
  const who = task === null ? 'plan' : `task-${task}`;
  return join(runDir(projectRoot), planId, `${who}-iteration-${iteration}${attempt > 1 ? `-attempt-${attempt}` : ''}.log`);
}

export function readRunMemory(projectRoot: string, planId: string): RunMemory {
  const empty: RunMemory = { version: 1, plan_id: planId, checkpoints: {}, tasks: {} };
  try {
    const v = JSON.parse(readTextIfExists(runMemoryPath(projectRoot, planId), { what: 'run memory' }) ?? '{}') as Partial<RunMemory>;
    return { ...empty, checkpoints: v.checkpoints ?? {}, tasks: v.tasks ?? {} };
  } catch {
    return empty;
  }
}

export function writeRunMemory(projectRoot: string, memory: RunMemory): void {
  ensureStateDir(projectRoot, 'run');
  writeFileAtomic(runMemoryPath(projectRoot, memory.plan_id), `${JSON.stringify(memory, null, 2)}\n`);
}
