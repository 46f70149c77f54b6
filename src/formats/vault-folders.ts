/**
 * The workflow folders of an AI-Employee / Persistence-Loop vault around its lifecycle folders
 * (`Approved/` → `Done/` | `Rejected/`). Which of them hold work the loop may run depends on
 * whether the vault has an approval stage:
 *   - with one (`Approved/` or `Pending_Approval/`), a person approves by moving a file into
 *     `Approved/`; `Needs_Action/` and `Pending_Approval/` hold work nobody approved yet: listed,
 *     never run;
 *   - without one (`Needs_Action/` + `Done/` only), the action folder is the agent's queue
 *     ("Assigned To: AI Agent"): its files run like approved ones and move to `Done/`.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
// Folder names are compared like item keys: without case, spaces, `_` or `-` (`Needs_Action` = `needs-action`).
import { keyForm as folderForm } from './json-items.js';

const ACTION = new Set(['needsaction', 'needaction']);
const APPROVAL_STAGE = new Set(['approved', 'pendingapproval']);
const AWAITING_APPROVAL = new Set(['pendingapproval']);
/** The vault's own notes: what came in, the plans written for it, the logs. Never tasks. */
const NOTES = new Set(['inbox', 'plans', 'logs']);

/** Whether a folder of the vault holds its notes (`Inbox/`, `Plans/`, `Logs/`), never tasks. */
export function isVaultNoteFolder(name: string): boolean {
  return NOTES.has(folderForm(name));
}

function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** The vault's action folder (`Needs_Action/`, `Need_Action/`) when it is the agent's queue: the vault has no approval stage. */
export function queueFolderIn(vault: string): string | null {
  const names = subdirs(vault);
  if (names.some((n) => APPROVAL_STAGE.has(folderForm(n)))) return null;
  const action = names.find((n) => ACTION.has(folderForm(n)));
  return action === undefined ? null : join(vault, action);
}

/** Folders whose work waits for a person (`Needs_Action/`, `Pending_Approval/` beside `Approved/`), with why, for listing. */
export function waitingFoldersIn(vault: string): Array<{ dir: string; why: string }> {
  const names = subdirs(vault);
  if (!names.some((n) => APPROVAL_STAGE.has(folderForm(n)))) return [];
  return names
    .filter((n) => ACTION.has(folderForm(n)) || AWAITING_APPROVAL.has(folderForm(n)))
    .map((n) => ({
      dir: join(vault, n),
      why: AWAITING_APPROVAL.has(folderForm(n)) ? 'waits for a person\'s approval' : 'waits to be planned and approved',
    }));
}
