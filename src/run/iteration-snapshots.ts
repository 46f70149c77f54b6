/**
 * Which paths the agent changed in a task, measured around each agent iteration: a snapshot
 * of the working tree before the agent starts and one after it exits; the paths that differ
 * are the agent's, each remembered with the snapshot from before the agent FIRST changed it
 * (its base). `ralf run` restores and commits exactly these paths: never what the user
 * changed before the run, between runs or between iterations (the checks' own files too),
 * and never by diffing against an older baseline such as the engine's task start.
 *
 * Kept per plan in `.planning/ralf/run/<plan-id>.touched.json` so a resumed run knows what
 * earlier runs' agents changed; the base snapshots are kept reachable under
 * `refs/ralf/bases/<plan>/<task>` until the task is committed or restored, so `git gc`
 * cannot drop what a restore needs. An iteration whose run was killed (-9) before it could
 * measure is recorded as pending (with the snapshot from before its agent started, kept under
 * the base ref too); the next run of the plan puts the paths changed since that snapshot back,
 * keeping them under an attempt ref first, so nothing is lost: edits made after the kill to
 * those paths are in that ref as well, and the message says how to get them back. Paths that
 * did not change since the agent started (the user's other work) are never touched.
 */
import { readTextIfExists } from '../fs/read-if-exists.js';
import { ensureStateDir } from '../fs/inside-project.js';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { processAlive } from '../fs/process-alive.js';
import { gitText, runGit } from '../git/run-git.js';
import { RALF_IDENTITY } from '../git/keep-ref.js';
import { readHead } from '../git/repo.js';
import { attemptRefName, commitPaths, restorePaths, shellQuote, snapshot, withoutUserEdits, type CommitResult, type RevertResult } from './git-ops.js';
import { pathChanges, sameEntry, type PathChange } from '../git/diff.js';
import type { SnapshotOptions } from '../git/snapshot.js';
import { runDir } from './run-state.js';

export interface TaskTouches {
  /** path → the snapshot tree from before the agent first changed it in this task. */
  paths: Record<string, string>;
  /** An agent iteration that started and was not measured (its run was killed). */
  pending: { before: string; iteration: number; pid: number; at: string } | null;
}

interface TouchLedger {
  version: 1;
  plan_id: string;
  tasks: Record<string, TaskTouches>;
}

export function touchLedgerPath(root: string, planId: string): string {
  return join(runDir(root), `${planId}.touched.json`);
}

/** What the next run did about an iteration whose `ralf run` was killed while its agent worked. */
export interface InterruptedIteration {
  task: number | null;
  iteration: number;
  /** When that agent started. */
  at: string;
  /** The paths put back (empty: nothing had changed, or the plan-level loop, which restores nothing). */
  revert: RevertResult | null;
  /** Paths changed since that agent started that were left as they are (the plan-level loop). */
  left: string[];
}

export class IterationSnapshots {
  private readonly path: string;

  constructor(
    private readonly root: string,
    private readonly planId: string,
    private readonly warn: (message: string) => void,
    private readonly now: () => number = Date.now,
    /** The project's snapshot settings (its untracked-file cap), the same the verifies use. */
    private readonly snapshotOptions: SnapshotOptions = {},
  ) {
    this.path = touchLedgerPath(root, planId);
  }

  /**
   * Iterations of this plan whose `ralf run` died (kill -9, power loss) while the agent worked:
   * each task's paths changed since that agent started are put back to that snapshot, the
   * current content kept under an attempt ref first. Call before any agent of this run starts
   * (after the dead run's agent was stopped).
   */
  async recoverInterrupted(): Promise<InterruptedIteration[]> {
    const ledger = this.read();
    const out: InterruptedIteration[] = [];
    for (const [k, entry] of Object.entries(ledger.tasks)) {
      const pending = entry.pending;
      if (!pending || pending.pid === process.pid || processAlive(pending.pid)) continue;
      const task = k === 'plan' ? null : Number(k);
      const now = await snapshot(this.root);
      const since = now === null ? [] : await pathChanges(this.root, pending.before, now).catch(() => []);
      const result: InterruptedIteration = { task, iteration: pending.iteration, at: pending.at, revert: null, left: [] };
      if (since.length > 0 && task !== null) {
        result.revert = await restorePaths(this.root, new Map(since.map((c) => [c.path, pending.before])), this.attempt(task, 'interrupted iteration'));
      } else result.left = since.map((c) => c.path);
      // Measured now: forget the pending mark (re-read: restorePaths does not touch the ledger).
      const fresh = this.read();
      const e = fresh.tasks[k];
      if (e) {
        e.pending = null;
        this.write(fresh);
      }
      out.push(result);
    }
    return out;
  }

  /** Snapshot before an agent iteration (null outside git), recorded as pending until `after`. */
  async before(task: number | null, iteration: number): Promise<string | null> {
    const tree = await snapshot(this.root, this.snapshotOptions);
    if (tree === null) return null;
    const ledger = this.read();
    const entry = (ledger.tasks[key(task)] ??= { paths: {}, pending: null });
    entry.pending = { before: tree, iteration, pid: process.pid, at: new Date(this.now()).toISOString() };
    this.write(ledger);
    // Reachable while pending: a run killed now leaves the next run this snapshot to restore to.
    await this.keepBase(task, tree);
    return tree;
  }

  /**
   * Snapshot after the agent exited: the paths it changed, recorded with their base. The
   * user's uncommitted work an agent's git command took out of the tree (`git stash`,
   * `reset --hard`, `checkout -- .`, `clean -fd`) is put back first (`userWorkPutBack`).
   */
  async after(task: number | null, before: string | null): Promise<PathChange[]> {
    return (await this.measure(task, before)).changes;
  }

  /** `after`, also saying which of the user's paths were put back (and where what the agent left there is kept). */
  async measure(task: number | null, before: string | null): Promise<{ changes: PathChange[]; userWorkPutBack: RevertResult | null }> {
    if (before === null) return { changes: [], userWorkPutBack: null };
    const tree = await snapshot(this.root, this.snapshotOptions);
    let changes = tree === null ? [] : await pathChanges(this.root, before, tree);
    const bases = this.read().tasks[key(task)]?.paths ?? {};
    let userWorkPutBack: RevertResult | null = null;
    const taken = await userWorkTaken(this.root, changes, (p) => bases[p] ?? before);
    if (taken.size > 0) {
      userWorkPutBack = await restorePaths(this.root, taken, this.attempt(task, 'iteration'), this.snapshotOptions);
      // Back as it was before the agent: not the agent's change (unless an earlier iteration's already).
      const back = new Set(userWorkPutBack.files);
      changes = changes.filter((c) => !back.has(c.path));
    }
    const ledger = this.read();
    const entry = (ledger.tasks[key(task)] ??= { paths: {}, pending: null });
    for (const c of changes) entry.paths[c.path] ??= before;
    entry.pending = null;
    this.write(ledger);
    return { changes, userWorkPutBack };
  }

  /** The paths the agents changed in this task so far. */
  touched(task: number | null): string[] {
    return Object.keys(this.read().tasks[key(task)]?.paths ?? {}).sort();
  }

  /** Puts the paths one iteration changed back to what they held before it (a timed-out agent). */
  async revertIteration(task: number | null, before: string, changes: PathChange[]): Promise<RevertResult> {
    return restorePaths(this.root, new Map(changes.map((c) => [c.path, before])), this.attempt(task, 'iteration'), this.snapshotOptions);
  }

  /** Puts every path the agents changed in this task back to its base; the task is then forgotten. */
  async revertTask(task: number | null): Promise<RevertResult> {
    const entry = this.read().tasks[key(task)];
    const r = await restorePaths(this.root, new Map(Object.entries(entry?.paths ?? {})), this.attempt(task, 'task'), this.snapshotOptions);
    await this.forget(task);
    return r;
  }

  /**
   * Commits the paths the agents changed in this task whose content now differs from their
   * base (an agent that changed a file and changed it back commits nothing there); the task
   * is then forgotten. Throws when git refuses the commit; the task is then kept.
   */
  async commitTask(task: number | null, message: string, timeoutMs?: number): Promise<CommitResult | null> {
    const entry = this.read().tasks[key(task)];
    const byBase = new Map<string, string[]>();
    for (const [p, base] of Object.entries(entry?.paths ?? {})) byBase.set(base, [...(byBase.get(base) ?? []), p]);
    const now = byBase.size === 0 ? null : await snapshot(this.root, this.snapshotOptions);
    const changes: PathChange[] = [];
    if (now !== null) for (const [base, paths] of byBase) changes.push(...(await pathChanges(this.root, base, now, paths)));
    if (changes.length === 0) {
      await this.forget(task);
      return null;
    }
    // Committed as the agent left them, without what the user had uncommitted in them before.
    const own = await withoutUserEdits(this.root, changes);
    for (const l of own.left) this.warn(`${l.path} is not in the commit of ${task === null ? 'the plan-level loop' : `task ${task}`}: ${l.reason}. The agent's change is in the working tree; commit it yourself.`);
    const c = await commitPaths(this.root, own.changes, message, timeoutMs);
    for (const p of c?.unstaged ?? []) this.warn(`${p}: what you had staged in it overlaps the agent's committed change, so it could not be staged again on top of the commit; your change is in the working tree, unstaged (\`git add -p -- ${shellQuote(p)}\` stages it again).`);
    await this.forget(task);
    return c;
  }

  async forget(task: number | null): Promise<void> {
    const ledger = this.read();
    if (ledger.tasks[key(task)] !== undefined) {
      delete ledger.tasks[key(task)];
      this.write(ledger);
    }
    await runGit(['update-ref', '-d', this.baseRef(task)], { cwd: this.root, okCodes: [0, 1] }).catch(() => undefined);
  }

  private attempt(task: number | null, scope: string) {
    const at = new Date(this.now());
    return { ref: attemptRefName(this.planId, task, at), message: `ralf-lite: ${scope} attempt of ${task === null ? 'the plan-level loop' : `task ${task}`} of plan ${this.planId}, kept before its files were restored` };
  }

  private baseRef(task: number | null): string {
    return attemptRefName(this.planId, task, new Date(0)).replace('refs/ralf/attempts/', 'refs/ralf/bases/').replace(/\/[^/]+$/, '');
  }

  /** Keeps `tree` reachable (a commit chain under the task's base ref) while the task may need it. */
  private async keepBase(task: number | null, tree: string): Promise<void> {
    const ref = this.baseRef(task);
    try {
      const parent = await gitText(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: this.root, okCodes: [0, 1] });
      const sha = await gitText(['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', 'ralf-lite: the working tree before an agent iteration (what a restore goes back to)'], { cwd: this.root, env: RALF_IDENTITY });
      await runGit(['update-ref', ref, sha], { cwd: this.root });
    } catch (err) {
      this.warn(`could not keep the snapshot ${tree.slice(0, 12)} under ${ref} (a restore still works unless \`git gc --prune=now\` runs first): ${(err as Error).message.split('\n')[0]}`);
    }
  }

  private read(): TouchLedger {
    const empty: TouchLedger = { version: 1, plan_id: this.planId, tasks: {} };
    let text: string | null;
    try {
      text = readTextIfExists(this.path, { what: 'touched-paths ledger' });
    } catch {
      text = '';
    }
    if (text === null) return empty;
    try {
      const v = JSON.parse(text) as Partial<TouchLedger>;
      if (v && typeof v.tasks === 'object' && v.tasks !== null && !Array.isArray(v.tasks)) return { ...empty, tasks: v.tasks };
    } catch {
      /* below */
    }
    this.warn(`${this.path} is not a ralf ledger (hand-edited?); ignoring it: files changed by earlier runs' agents are left as they are`);
    return empty;
  }

  private write(ledger: TouchLedger): void {
    ensureStateDir(this.root, 'run');
    writeFileAtomic(this.path, `${JSON.stringify(ledger, null, 2)}\n`);
  }
}

/**
 * The user's uncommitted work an agent's git command took out of the tree: a path whose content
 * before the agent first changed it (its base) differed from HEAD (an uncommitted edit, staged or
 * not, or an untracked file: the user's, since the agent had not touched it yet) and that now
 * holds exactly HEAD's content (or is gone, as HEAD does not have it). That is `git stash`,
 * `reset --hard`, `checkout -- .`, `clean -fd` or `stash -u`, never the task's work: the user's
 * work is sacred. Returns path → the base to put it back from.
 */
async function userWorkTaken(root: string, changes: PathChange[], baseOf: (path: string) => string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (changes.length === 0) return out;
  const head = await readHead(root, 'tree');
  if (!head) return out;
  const byBase = new Map<string, PathChange[]>();
  for (const c of changes) byBase.set(baseOf(c.path), [...(byBase.get(baseOf(c.path)) ?? []), c]);
  for (const [base, group] of byBase) {
    const now = new Map(group.map((c) => [c.path, c]));
    // HEAD (old side) against the base (new side), for these paths: where the user had work.
    for (const d of await pathChanges(root, head, base, group.map((c) => c.path))) {
      const c = now.get(d.path);
      if (c && sameEntry({ mode: c.new_mode, blob: c.new_blob }, { mode: d.old_mode, blob: d.old_blob })) out.set(d.path, base);
    }
  }
  return out;
}

function key(task: number | null): string {
  return task === null ? 'plan' : String(task);
}
