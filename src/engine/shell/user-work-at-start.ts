/**
 * The user's uncommitted work where a loop starts (`ralf task start`, `ralf task reset`): the
 * paths whose content in the start snapshot differs from HEAD's, HEAD's commit and what the user
 * had staged (core/uncommitted.ts). A verify then tells when one of the agent's git commands took
 * that work or changed its staging. Never a failure of the command: null when git cannot say.
 */
import { pathChanges } from '../../git/diff.js';
import { userIndexTree } from '../../git/index-tree.js';
import { readHead } from '../../git/repo.js';
import { uncommittedAtStart, userPathsAtReset, type UncommittedAtStart } from '../core/uncommitted.js';

/** What the loop had before a reset: its start and the user's work recorded there. */
export interface Restart {
  startRef: string | null;
  before: UncommittedAtStart | null | undefined;
}

export async function userWorkAtStart(root: string, startRef: string, restart?: Restart): Promise<UncommittedAtStart | null> {
  const names = async (from: string, to: string) => (await pathChanges(root, from, to)).map((c) => c.path);
  try {
    const head = await readHead(root);
    if (!head) return null;
    const [differing, changedByLoop] = await Promise.all([names(head, startRef), restart?.startRef ? names(restart.startRef, startRef) : Promise.resolve(null)]);
    const paths = restart ? userPathsAtReset(differing, changedByLoop, restart.before) : differing;
    // Only when there is work of the user's to watch: two more git processes (a copy of the index, write-tree).
    return uncommittedAtStart(head, paths, paths.length > 0 ? await userIndexTree(root) : null);
  } catch {
    return null;
  }
}
