/**
 * An agent outlives a `ralf run` killed with -9 (it runs in its own process group), and the
 * resumed run would start a second agent beside it, both writing the same files. So the
 * run notes each agent's process group in a ledger (`.planning/ralf/run/.checks-<pid>`, the
 * same mechanism and format as the verify's check ledger, src/verify/orphan-checks.ts), and
 * the next run kills what is left of a dead run's agent, and waits for it to be gone, before
 * starting its own.
 */
import { join } from 'node:path';
import { openCheckLedger, reapOrphanChecks, type CheckLedger } from '../verify/orphan-checks.js';
import { runDir } from './run-state.js';

export function openAgentLedger(root: string): CheckLedger {
  return openCheckLedger(runDir(root));
}

/** Kills the agents of runs that died (SIGTERM, then SIGKILL); resolves when their groups are gone (at most ~5 s). */
export async function reapOrphanAgents(root: string): Promise<number[]> {
  const groups = reapOrphanChecks(join(runDir(root)));
  const deadline = Date.now() + 5000;
  for (const pgid of groups) {
    while (groupAlive(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    if (groupAlive(pgid)) {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  }
  return groups;
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
