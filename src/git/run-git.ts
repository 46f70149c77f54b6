import { spawn } from 'node:child_process';

/** A git command that failed (or git that could not be started). */
export class GitError extends Error {
  readonly args: string[];
  readonly exitCode: number | null;
  readonly stderr: string;
  constructor(args: string[], exitCode: number | null, stderr: string) {
    super(`git ${args.join(' ')} failed${exitCode === null ? '' : ` (exit ${exitCode})`}: ${stderr.trim() || 'no output'}`);
    this.name = 'GitError';
    this.args = args;
    this.exitCode = exitCode;
    this.stderr = stderr;
  }
}

export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

export interface GitOptions {
  cwd: string;
  /** Extra environment (e.g. `GIT_INDEX_FILE` for a temp index). */
  env?: Record<string, string>;
  /** Written to stdin (stdin is ignored otherwise). */
  input?: string | Buffer;
  /** Exit codes that are answers, not failures. Default `[0]`. */
  okCodes?: number[];
}

/**
 * Variables a surrounding git (a hook, `git rebase --exec`) may have set that would
 * point our commands at another repository or index.
 */
const INHERITED_GIT_VARS = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_PREFIX', 'GIT_COMMON_DIR', 'GIT_NAMESPACE'];

function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of INHERITED_GIT_VARS) delete env[key];
  return {
    ...env,
    // Read-only commands must not refresh (write) the user's index behind their back.
    GIT_OPTIONAL_LOCKS: '0',
    GIT_TERMINAL_PROMPT: '0',
    LC_ALL: 'C',
    ...extra,
  };
}

/**
 * Runs git directly (no shell, no execa: these run between agent iterations and
 * should cost one process each). Throws `GitError` for exit codes not in `okCodes`.
 */
export function runGit(args: string[], options: GitOptions): Promise<GitResult> {
  return spawnGit('git', args, args, options);
}

/**
 * Several git commands in order, in ONE process started from node (a shell runs them,
 * stopping at the first failure); the result is the last command's. Each process node
 * spawns costs ~2 ms of its main thread, and the chain runs to the end without waiting
 * for node's event loop between steps. `input` goes to the first command that reads stdin.
 */
export function runGitSequence(steps: string[][], options: GitOptions): Promise<GitResult> {
  const script = steps.map((args) => ['git', ...args].map(shellQuote).join(' ')).join(' && ');
  const shown = steps.flatMap((args, i) => (i === 0 ? args : ['&&', 'git', ...args]));
  return spawnGit('/bin/sh', ['-c', script], shown, options);
}

function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** `args` is what a GitError shows (the git arguments, not the shell script). */
function spawnGit(file: string, argv: string[], args: string[], options: GitOptions): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, {
      cwd: options.cwd,
      env: gitEnv(options.env),
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (c: Buffer) => out.push(c));
    child.stderr?.on('data', (c: Buffer) => err.push(c));
    child.once('error', (e: NodeJS.ErrnoException) => reject(new GitError(args, null, e.message)));
    child.once('close', (code) => {
      const stderr = Buffer.concat(err).toString('utf8');
      const exit = code ?? -1;
      if (!(options.okCodes ?? [0]).includes(exit)) return reject(new GitError(args, code, stderr));
      resolve({ code: exit, stdout: Buffer.concat(out), stderr });
    });
    if (options.input !== undefined && child.stdin) {
      child.stdin.on('error', () => undefined);
      child.stdin.end(options.input);
    }
  });
}

/** stdout of a successful git command as trimmed text. */
export async function gitText(args: string[], options: GitOptions): Promise<string> {
  return (await runGit(args, options)).stdout.toString('utf8').trim();
}
