/**
 * The shell that runs checks: bash, as a CI step runs it (`bash --noprofile --norc -eo pipefail`,
 * GitHub Actions' `shell: bash`), so a script fails at its first failing command and a pipeline
 * fails when any stage fails; `set -e`'s own exceptions apply as the author's bash has them
 * (conditions of if/while, all but the last command of && and || lists, `!`). Without bash,
 * `/bin/sh -e`, with pipefail when that sh has it (dash before 0.5.13 does not).
 */
import { accessSync, constants } from 'node:fs';
import { spawnSync } from 'node:child_process';

export interface CheckShell {
  /** The executable and the arguments before the script. */
  file: string;
  args: string[];
  /** For messages and docs: `bash -eo pipefail`, `sh -e`. */
  label: string;
}

let cached: CheckShell | undefined;

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function checkShell(): CheckShell {
  if (cached) return cached;
  const bash = ['/bin/bash', '/usr/bin/bash', '/usr/local/bin/bash', '/opt/homebrew/bin/bash'].find(executable);
  if (bash) cached = { file: bash, args: ['--noprofile', '--norc', '-eo', 'pipefail', '-c'], label: 'bash -eo pipefail' };
  else {
    const pipefail = spawnSync('/bin/sh', ['-c', 'set -o pipefail'], { stdio: 'ignore' }).status === 0;
    cached = pipefail ? { file: '/bin/sh', args: ['-eo', 'pipefail', '-c'], label: 'sh -eo pipefail' } : { file: '/bin/sh', args: ['-e', '-c'], label: 'sh -e (no pipefail in this sh)' };
  }
  return cached;
}
