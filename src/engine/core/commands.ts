/**
 * The command texts the loop hands out (`next`, the handoff, the Loop Report), built in one
 * place (pure). `invocation` is how the runtime is started in the context the text is read
 * in (`ralf`, or an installed copy's `"/usr/bin/node" "/home/u/.claude/ralf-lite/ralf.js"`);
 * the shell decides it (shell/invocation.ts), this only spells the command.
 */

/** The invocation when nothing better is known: the package's `ralf` bin. */
export const DEFAULT_INVOCATION = 'ralf';

/** One word for a POSIX shell: as is when it is plain, else single-quoted. */
export function shellWord(value: string): string {
  if (value !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** `ralf task verify <PLAN> <N>`, or `ralf plan verify <PLAN>` for the plan-level loop (taskNumber null). */
export function verifyCommand(planPath: string, taskNumber: number | null, invocation = DEFAULT_INVOCATION): string {
  return taskNumber === null ? `${invocation} plan verify ${shellWord(planPath)}` : `${invocation} task verify ${shellWord(planPath)} ${taskNumber}`;
}

/** `ralf status <PLAN>`: every task of the plan, where it resumes, the last handoff. */
export function statusCommand(planPath: string, invocation = DEFAULT_INVOCATION): string {
  return `${invocation} status ${shellWord(planPath)}`;
}

/** `ralf report <PLAN>`: writes the Loop Report into the plan's SUMMARY.md. */
export function reportCommand(planPath: string, invocation = DEFAULT_INVOCATION): string {
  return `${invocation} report ${shellWord(planPath)}`;
}

/** `ralf task reset <PLAN> <N>`, or `ralf task reset <PLAN> --plan` for the plan-level loop (taskNumber null). */
export function resetCommand(planPath: string, taskNumber: number | null, invocation = DEFAULT_INVOCATION): string {
  return `${invocation} task reset ${shellWord(planPath)} ${taskNumber === null ? '--plan' : taskNumber}`;
}

/** `ralf task approve <PLAN> <N>`, or `--plan` for the plan-level loop: the answer to a Rule 4 stop. */
export function approveCommand(planPath: string, taskNumber: number | null, invocation = DEFAULT_INVOCATION): string {
  return `${invocation} task approve ${shellWord(planPath)} ${taskNumber === null ? '--plan' : taskNumber}`;
}

/** `ralf task defer <PLAN> <N> --reason "..."`: the human sets a task aside. */
export function deferCommand(planPath: string, taskNumber: number, invocation = DEFAULT_INVOCATION): string {
  return `${invocation} task defer ${shellWord(planPath)} ${taskNumber} --reason "..."`;
}
