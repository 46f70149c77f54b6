/**
 * Keeps every tree a loop verified (its start and each iteration's working-tree snapshot, in
 * every segment) reachable under one ref per loop, `refs/ralf/loops/<state-id>/<task key>`:
 * snapshots are unreferenced git objects, and `git gc --prune=now` (or two weeks of
 * `gc --auto`) would otherwise delete what `ralf task defer`, an approval or a later diff
 * against the loop's start needs. Updated when a loop gets a new start (`task start`, reset,
 * approve) and when a verify stops it; never on the retry path (it costs three git processes).
 * A failure to keep is never a failure of the command.
 */
import { keepTreesUnderRef, safeRefPart } from '../../git/keep-ref.js';
import type { LoopState } from '../core/types.js';

/** `refs/ralf/loops/<state-id>/<task key | plan>`. */
export function loopRef(stateId: string, loop: Pick<LoopState, 'scope'>, key: string | null): string {
  return `refs/ralf/loops/${safeRefPart(stateId)}/${loop.scope === 'plan' || key === null ? 'plan' : safeRefPart(key)}`;
}

/** Every tree of the loop, named by where it came from (`start`, `s1-iteration-2`, …). */
export function loopTrees(loop: LoopState): Array<[string, string]> {
  const out = new Map<string, string>();
  const add = (name: string, tree: string | null | undefined) => {
    if (tree && /^[0-9a-f]{40,64}$/.test(tree) && !out.has(name)) out.set(name, tree);
  };
  add('start', loop.start_ref);
  // What the user had staged where the loop started: the command that puts it back needs it.
  add('start-index', loop.uncommitted_at_start?.index);
  const segments = [...(loop.segments ?? []).map((s) => s.iterations), loop.iterations];
  segments.forEach((iterations, i) => iterations.forEach((it) => add(`s${i + 1}-iteration-${it.iteration}`, it.tree)));
  return [...out];
}

export async function keepLoopTrees(root: string, stateId: string, key: string | null, loop: LoopState): Promise<string | null> {
  const trees = loopTrees(loop);
  if (trees.length === 0) return null;
  const ref = loopRef(stateId, loop, key);
  try {
    await keepTreesUnderRef(root, ref, trees, `ralf-lite: the trees of ${loop.scope === 'plan' ? 'the plan-level loop' : `task ${loop.task_number}`} (start and every verified iteration), kept from git gc`);
    return ref;
  } catch {
    return null;
  }
}
