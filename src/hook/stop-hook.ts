/**
 * `ralf hook stop`: the I/O around the Stop rule (stop-rule.ts). Reads the host's hook
 * JSON, the project's loop state and the per-session block counter, decides, and records
 * a block. The common case (no loop of this session is open) reads a few small files and
 * loads nothing else; only a block loads the config (hooks.enabled, hooks.max_blocks).
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isBundled, requireBundle } from '../bundle/require-bundle.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { findProjectRoot } from '../fs/project-root.js';
import { readTextIfExists } from '../fs/read-if-exists.js';
import { readRegularFileSlice } from '../fs/read-regular-file.js';
import { STATE_DIR } from '../engine/shell/paths.js';
import { listPlanIds, parsePlanState, stopFlagPresent } from '../engine/shell/store.js';
import { shellQuote } from '../install/render.js';
import { decideStop, DEFAULT_MAX_BLOCKS, holdMark, type StateFile, type StopDecision, type StopEvent } from './stop-rule.js';

/** The host's hook input: Claude Code's Stop/SubagentStop JSON (the OpenCode plugin sends the same keys). */
export interface HookInput {
  session_id?: unknown;
  cwd?: unknown;
  stop_hook_active?: unknown;
  hook_event_name?: unknown;
  last_assistant_message?: unknown;
  transcript_path?: unknown;
  agent_transcript_path?: unknown;
}

export interface StopHookResult extends Pick<StopDecision, 'decision' | 'why'> {
  reason: string | null;
  project_root: string | null;
  plan_id: string | null;
  task: number | null;
  blocks: number | null;
  max_blocks: number | null;
}

export interface StopHookOptions {
  input: HookInput;
  /** The runtime's command line for the `next` command in the reason. */
  runtime: string;
  /** Loads the effective config for the project (only called when the rule would block). */
  loadHooksConfig?: (projectRoot: string) => { enabled: boolean; maxBlocks: number };
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

export function runStopHook(options: StopHookOptions): StopHookResult {
  const { input } = options;
  const cwd = resolve(str(input.cwd) ?? process.cwd());
  const root = findProjectRoot(cwd);
  const none = { reason: null, project_root: root, plan_id: null, task: null, blocks: null, max_blocks: null };
  if (!root) return { decision: 'allow', why: 'no .planning/ here', ...none };
  const sessionId = str(input.session_id);
  if (!sessionId) return { decision: 'allow', why: 'the host gave no session id', ...none };

  const subagent = input.hook_event_name === 'SubagentStop';
  const event: StopEvent = {
    sessionId,
    stopHookActive: input.stop_hook_active === true,
    lastMessage: str(input.last_assistant_message),
    subagent,
    transcript: readTail(str(subagent ? input.agent_transcript_path : input.transcript_path)),
  };
  const states = readStates(root, sessionId);
  const counter = new BlockCounter(root, sessionId);
  const planArg = (planRel: string) => shellQuote(resolve(root) === cwd ? planRel : join(root, planRel));
  const base = { stopFlag: stopFlagPresent(root), blocksSoFar: (key: string) => counter.get(key), lastHold: counter.lastHold(), runtime: options.runtime, planArg };

  let decision = decideStop(event, states, { ...base, enabled: true, maxBlocks: DEFAULT_MAX_BLOCKS });
  let maxBlocks: number | null = null;
  if (decision.decision === 'block') {
    // Only now is the config worth loading: the user may have turned the hook off or changed the cap.
    const cfg = (options.loadHooksConfig ?? loadHooksConfig)(root);
    maxBlocks = cfg.maxBlocks;
    decision = decideStop(event, states, { ...base, enabled: cfg.enabled, maxBlocks });
  }
  const loop = decision.loop;
  let blocks = loop ? counter.get(loop.key) : null;
  if (decision.decision === 'block') blocks = counter.add(decision.loop.key, holdMark(decision.loop));
  return {
    decision: decision.decision,
    why: decision.why,
    reason: decision.decision === 'block' ? decision.reason : null,
    project_root: root,
    plan_id: loop?.planId ?? null,
    task: loop?.loop.task_number ?? null,
    blocks,
    max_blocks: maxBlocks,
  };
}

/**
 * The plan states that mention the session (a cheap text test before parsing). A state
 * file that cannot be read or parsed is skipped: the hook fails open, never closed.
 */
function readStates(root: string, sessionId: string): StateFile[] {
  const out: StateFile[] = [];
  for (const planId of listPlanIds(root)) {
    const path = join(root, STATE_DIR, `${planId}.json`);
    try {
      const text = readTextIfExists(path);
      if (text === null || !text.includes(sessionId)) continue;
      out.push({ planId, state: parsePlanState(text, path) });
    } catch {
      /* unreadable or damaged: ralf status names it; the hook never holds on it */
    }
  }
  return out;
}

const TRANSCRIPT_TAIL_BYTES = 4 * 1024 * 1024;

/** The last few MB of a transcript (JSONL), or null when there is none to read (never blocks on a FIFO there). */
function readTail(path: string | null): string | null {
  if (!path) return null;
  return readRegularFileSlice(path, TRANSCRIPT_TAIL_BYTES, 'end')?.toString('utf8') ?? null;
}

/**
 * How often the hook held a loop, per session, and where the loop stood at the last hold:
 * `.planning/ralf/hooks/<session>.json`, `{"<loop key>": <blocks>, ..., "|last": "<holdMark of the last hold>"}`.
 */
class BlockCounter {
  private readonly path: string;
  private counts: Record<string, number | string> | null = null;

  constructor(root: string, sessionId: string) {
    this.path = join(root, STATE_DIR, 'hooks', `${sessionId.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 120)}.json`);
  }

  private load(): Record<string, number | string> {
    if (this.counts) return this.counts;
    try {
      const value = JSON.parse(readTextIfExists(this.path) ?? '{}') as unknown;
      this.counts = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, number | string>) : {};
    } catch {
      this.counts = {};
    }
    return this.counts;
  }

  get(key: string): number {
    const n = this.load()[key];
    return typeof n === 'number' && Number.isFinite(n) ? n : 0;
  }

  lastHold(): string | null {
    const mark = this.load()['|last'];
    return typeof mark === 'string' ? mark : null;
  }

  add(key: string, mark: string): number {
    const blocks = this.get(key) + 1;
    const counts = { ...this.load(), [key]: blocks, '|last': mark };
    mkdirSync(join(this.path, '..'), { recursive: true });
    writeFileAtomic(this.path, `${JSON.stringify(counts, null, 2)}\n`);
    this.counts = counts;
    return blocks;
  }
}

/** hooks.enabled / hooks.max_blocks from the effective config (global defaults < project). */
function loadHooksConfig(projectRoot: string): { enabled: boolean; maxBlocks: number } {
  const planning = (isBundled ? requireBundle('lib', 'planning') : null) as typeof import('../engine/shell/planning-deps.js') | null;
  if (!planning) throw new Error('config loading needs the built runtime');
  const { config } = planning.createPlanningDeps().loadConfig({ cwd: projectRoot });
  return { enabled: config.hooks?.enabled ?? true, maxBlocks: config.hooks?.max_blocks ?? DEFAULT_MAX_BLOCKS };
}
