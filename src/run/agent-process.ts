/**
 * Starts one agent process and waits for it, with the per-iteration timeout and Ctrl-C:
 * the agent runs in its own process group (detached), so on timeout or abort the whole
 * tree it started (shells, test runners, servers) is killed: SIGTERM, then SIGKILL after
 * a grace period. The result is data (execa `reject: false` style), never an exception.
 * stdout is read line by line while it runs (live token counts), and kept up to a cap.
 */
import { createWriteStream, mkdirSync, openSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { execa } from 'execa';
import type { AgentInvocation } from './agents/types.js';

export interface AgentProcessOptions {
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Each complete stdout line as it arrives. */
  onLine?: ((line: string) => void) | undefined;
  /** Also write stdout and stderr (raw) here. */
  logFile?: string | undefined;
  /** Called once the process is started, with its pid. */
  onStart?: ((pid: number | null) => void) | undefined;
  /** Grace between SIGTERM and SIGKILL. */
  killGraceMs?: number | undefined;
  env?: NodeJS.ProcessEnv | undefined;
}

export interface AgentProcessResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** Killed because the run was interrupted (Ctrl-C). */
  aborted: boolean;
  spawnErrorCode: string | null;
  spawnErrorMessage: string | null;
  stdout: string;
  stdoutTail: string;
  stderrTail: string;
  durationMs: number;
  pid: number | null;
}

const STDOUT_CAP = 16 * 1024 * 1024;
const TAIL = 8 * 1024;

export async function runAgentProcess(inv: AgentInvocation, opts: AgentProcessOptions): Promise<AgentProcessResult> {
  const started = Date.now();
  let log: WriteStream | null = null;
  if (opts.logFile) {
    mkdirSync(dirname(opts.logFile), { recursive: true });
    // Opened before the agent starts: an agent that deletes .planning/ralf/ (git clean -fdx)
    // cannot make the open fail later. The log is a convenience: a write error (disk full)
    // ends logging, never the run.
    log = createWriteStream('', { fd: openSync(opts.logFile, 'w') });
    log.on('error', () => {
      log = null;
    });
  }
  const child = execa(inv.file, inv.args, {
    cwd: opts.cwd,
    env: { ...(opts.env ?? process.env), ...inv.env },
    extendEnv: false,
    preferLocal: true,
    localDir: opts.cwd,
    detached: true,
    cleanup: true,
    reject: false,
    buffer: false,
    stripFinalNewline: false,
    ...(inv.stdin === null ? { stdin: 'ignore' as const } : { input: inv.stdin }),
    stdout: 'pipe',
    stderr: 'pipe',
  });

  safe(() => opts.onStart?.(child.pid ?? null));
  let stdout = '';
  let stdoutTruncated = false;
  let stderrTail = '';
  let partial = '';
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    log?.write(chunk);
    if (stdout.length < STDOUT_CAP) stdout += chunk;
    else stdoutTruncated = true;
    if (opts.onLine) {
      partial += chunk;
      let nl: number;
      while ((nl = partial.indexOf('\n')) !== -1) {
        const line = partial.slice(0, nl);
        partial = partial.slice(nl + 1);
        safe(() => opts.onLine!(line));
      }
    }
  });
  child.stderr?.on('data', (chunk: string) => {
    log?.write(chunk);
    stderrTail = (stderrTail + chunk).slice(-TAIL);
  });

  let timedOut = false;
  let aborted = false;
  let killTimer: NodeJS.Timeout | undefined;
  const killTree = () => {
    signalGroup(child.pid, 'SIGTERM');
    killTimer ??= setTimeout(() => signalGroup(child.pid, 'SIGKILL'), opts.killGraceMs ?? 3000);
    killTimer.unref?.();
  };
  const timer = setTimeout(() => {
    timedOut = true;
    killTree();
  }, Math.max(1, opts.timeoutMs));
  const onAbort = () => {
    aborted = true;
    killTree();
  };
  if (opts.signal?.aborted) onAbort();
  else opts.signal?.addEventListener('abort', onAbort, { once: true });

  const result = await child;
  clearTimeout(timer);
  opts.signal?.removeEventListener('abort', onAbort);
  // Whatever the agent left running in its group goes too once we gave up on it.
  if (timedOut || aborted) signalGroup(child.pid, 'SIGKILL');
  if (killTimer) clearTimeout(killTimer);
  if (opts.onLine && partial !== '') safe(() => opts.onLine!(partial));
  if (log) await new Promise<void>((resolve) => log!.end(resolve));

  const spawnError = result.failed && result.exitCode === undefined && !result.signal ? (result.cause as NodeJS.ErrnoException | undefined) : undefined;
  if (stdoutTruncated) stdout += '\n[ralf: output truncated]\n';
  return {
    exitCode: result.exitCode ?? null,
    signal: result.signal ?? null,
    timedOut,
    aborted,
    spawnErrorCode: spawnError?.code ?? (spawnError ? 'SPAWN_FAILED' : null),
    spawnErrorMessage: spawnError ? spawnError.message : null,
    stdout,
    stdoutTail: stdout.slice(-TAIL),
    stderrTail,
    durationMs: Date.now() - started,
    pid: child.pid ?? null,
  };
}

function signalGroup(pid: number | undefined, sig: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, sig);
  } catch {
    try {
      process.kill(pid, sig);
    } catch {
      /* already gone */
    }
  }
}

function safe(fn: () => void): void {
  try {
    fn();
  } catch {
    /* a renderer problem must not kill the run */
  }
}
