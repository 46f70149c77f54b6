import { spawn, type ChildProcess } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import { monotonicMs } from '../monotonic.js';
import { HeadTailBuffer } from './output-buffer.js';
import { scheduleGroupKill, signalProcessGroup } from './process-group.js';
import { checkShell } from './shell.js';

export interface RunCommandOptions {
  /** Working directory (the project root). */
  cwd: string;
  /** Kill the check's process tree after this long; `0`/non-finite: no timeout. */
  timeoutMs: number;
  /** Bytes of output kept from the start and from the end. */
  headBytes: number;
  tailBytes: number;
  /** Extra environment, merged over `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Aborting kills the process tree; the outcome is marked `interrupted`. */
  signal?: AbortSignal;
  /** Called with the check's process group id once its shell started (see orphan-checks.ts). */
  onSpawn?: ((pgid: number) => void) | undefined;
  /** Every chunk of output as it arrives (the fingerprint scans the whole output, not the kept head/tail). */
  onOutput?: ((chunk: Buffer) => void) | undefined;
  /** Between SIGTERM and SIGKILL when killing the tree. Default 2000. */
  killGraceMs?: number;
  /**
   * How long to wait for the output pipe to close once the shell has exited. A
   * daemon forked by the check can hold the pipe open forever; after this grace the
   * group is killed and the pipe abandoned. Default 1500.
   */
  exitGraceMs?: number;
}

export interface CommandOutcome {
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  interrupted: boolean;
  duration_ms: number;
  /** Head and tail of the interleaved stdout+stderr. */
  output: string;
  /** All bytes the check wrote (kept or not). */
  output_bytes: number;
  /** Set when the shell could not be started at all. */
  spawn_error?: string;
}

const DEFAULT_KILL_GRACE_MS = 2000;
const DEFAULT_EXIT_GRACE_MS = 1500;
/** After SIGKILL, how long to wait for the exit event before giving up on the process. */
const GIVE_UP_AFTER_KILL_MS = 5000;

const SIGNAL_NAMES = new Map<number, string>(
  Object.entries(osConstants.signals).map(([name, num]) => [num as number, name]),
);

/**
 * The shell reports a child killed by signal N as exit status 128+N (dash does not
 * `exec` the last command), so `node crash.js` dying of SIGSEGV reaches us as exit
 * 139. Record the signal name for it too; the exit code stays as reported.
 */
export function signalFromShellStatus(code: number | null): string | null {
  if (code === null || code <= 128 || code > 128 + 64) return null;
  return SIGNAL_NAMES.get(code - 128) ?? null;
}

/**
 * Runs one shell command as a check: `bash -eo pipefail -c <command>` (shell.ts) in its own process
 * group, stdin ignored, stdout and stderr interleaved (in write order) into one
 * bounded buffer.
 * Never rejects: failures, timeouts and signals are part of the outcome.
 *
 * Lifecycle: the check is done when the shell has exited AND its output pipe has
 * closed, or when the pipe is still held open `exitGraceMs` after the exit (a
 * daemon): then the group is killed and the pipe abandoned. A timeout or an abort
 * sends SIGTERM to the group, SIGKILL after `killGraceMs`. Once done, anything
 * still in the group is sent SIGTERM (then SIGKILL), so no check leaves processes
 * behind; processes that started their own session (real daemons) are untouched.
 */
export async function runCommand(command: string, options: RunCommandOptions): Promise<CommandOutcome> {
  const started = monotonicMs();
  const output = new HeadTailBuffer(options.headBytes, options.tailBytes);
  const elapsed = () => Math.round(monotonicMs() - started);
  const base = { exit_code: null, signal: null, timed_out: false, duration_ms: 0, output: '', output_bytes: 0 };

  if (options.signal?.aborted) return { ...base, interrupted: true };

  // node:child_process directly, not execa: everything execa would add here (timeout,
  // tree kill, buffering, interleaving) this runner does itself, differently (process
  // group, head+tail buffer, `exec 2>&1`), and execa's load and option handling cost
  // ~14 ms per verify (measured with --cpu-prof), more than the whole budget above node
  // start-up. `exec 2>&1` (same line, so the shell's line numbers stay right) makes stderr
  // the same pipe as stdout: the output keeps the exact order of writes, which two merged
  // pipes cannot. stderr is still read for what the shell prints before that (syntax errors).
  const spawned = await startShell(command, options);
  if ('error' in spawned) {
    const message = `could not start ${checkShell().file} in ${options.cwd}: ${spawned.error}`;
    return { ...base, interrupted: false, duration_ms: elapsed(), output: message, spawn_error: message };
  }
  const subprocess = spawned.child;
  const pid = spawned.pid;
  options.onSpawn?.(pid);
  const pgid: number = pid;
  const killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const exitGraceMs = options.exitGraceMs ?? DEFAULT_EXIT_GRACE_MS;

  return new Promise<CommandOutcome>((resolve) => {
    let exitCode: number | null = null;
    let exitSignal: string | null = null;
    let exited = false;
    let outputClosed = false;
    let timedOut = false;
    let interrupted = false;
    let terminating = false;
    let finished = false;
    const timers = new Set<NodeJS.Timeout>();
    const later = (ms: number, fn: () => void) => {
      const t = setTimeout(() => {
        timers.delete(t);
        fn();
      }, ms);
      timers.add(t);
      return t;
    };

    // If the runner itself exits mid-check, the detached tree must not outlive it.
    const onRunnerExit = () => signalProcessGroup(pgid, 'SIGKILL');
    process.on('exit', onRunnerExit);

    const abandonOutput = () => {
      subprocess.stdout?.destroy();
      subprocess.stderr?.destroy();
    };

    const terminate = () => {
      if (terminating || finished) return;
      terminating = true;
      signalProcessGroup(pgid, 'SIGTERM');
      later(killGraceMs, () => {
        signalProcessGroup(pgid, 'SIGKILL');
        // A process that survives SIGKILL (uninterruptible I/O): stop waiting for it.
        later(GIVE_UP_AFTER_KILL_MS, () => {
          exited = true;
          abandonOutput();
          finish();
        });
      });
    };

    const onAbort = () => {
      interrupted = true;
      terminate();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });

    if (Number.isFinite(options.timeoutMs) && options.timeoutMs > 0) {
      later(options.timeoutMs, () => {
        timedOut = true;
        terminate();
      });
    }

    // Both pipes feed one buffer: after `exec 2>&1` everything arrives on stdout.
    let openPipes = 0;
    for (const pipe of [subprocess.stdout, subprocess.stderr]) {
      if (!pipe) continue;
      openPipes++;
      pipe.on('data', (chunk: Buffer) => {
        output.push(chunk);
        options.onOutput?.(chunk);
      });
      pipe.on('error', () => {
        /* read errors end the stream; the exit status is what counts */
      });
      pipe.once('close', () => {
        if (--openPipes > 0) return;
        outputClosed = true;
        finish();
      });
    }
    if (openPipes === 0) outputClosed = true;

    subprocess.once('exit', (code: number | null, signal: NodeJS.Signals | null) => {
      exitCode = code;
      exitSignal = signal;
      exited = true;
      if (!outputClosed) {
        later(exitGraceMs, () => {
          // Something the check started still holds the pipe: end it and move on.
          if (signalProcessGroup(pgid, 'SIGTERM')) scheduleGroupKill(pgid, killGraceMs);
          abandonOutput();
        });
      }
      finish();
    });

    function finish(): void {
      if (finished || !exited || !outputClosed) return;
      finished = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      options.signal?.removeEventListener('abort', onAbort);
      process.off('exit', onRunnerExit);
      // The shell is gone. Whatever it left running in its group (`server > /dev/null &`,
      // processes that ignored SIGTERM) goes too, so nothing holds ports or files into the
      // next iteration. Real daemons leave the group (setsid) and are not affected.
      if (signalProcessGroup(pgid, 'SIGTERM')) scheduleGroupKill(pgid, killGraceMs);
      // bash execs the script's last command, so a check killed by a signal can end the shell
      // itself: record it as the shell reports such a child (128+N), as dash, which forks, does.
      const signalNumber = exitSignal !== null && !timedOut && !interrupted ? osConstants.signals[exitSignal as NodeJS.Signals] : undefined;
      resolve({
        exit_code: exitCode ?? (signalNumber !== undefined ? 128 + signalNumber : null),
        signal: exitSignal ?? signalFromShellStatus(exitCode),
        timed_out: timedOut,
        interrupted,
        duration_ms: elapsed(),
        output: output.toString(),
        output_bytes: output.totalBytes,
      });
    }
  });
}

type Started = { child: ChildProcess; pid: number } | { error: string };

/**
 * The check shell (src/verify/shell.ts: bash -eo pipefail) in its own process group
 * (detached), stdin closed, CI=true (runners stay non-interactive and one-shot; the user's own
 * CI value wins). A shell that cannot be started (missing cwd) has no pid; its error arrives
 * as an event.
 */
function startShell(command: string, options: RunCommandOptions): Promise<Started> {
  let child: ChildProcess;
  const shell = checkShell();
  try {
    child = spawn(shell.file, [...shell.args, `exec 2>&1; ${command}`], {
      cwd: options.cwd,
      env: { ...process.env, CI: process.env.CI || 'true', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
  } catch (err) {
    return Promise.resolve({ error: (err as Error).message });
  }
  const pid = child.pid;
  if (pid !== undefined) {
    // Started: later errors (a failed kill) must not crash the runner; the exit decides.
    child.on('error', () => undefined);
    return Promise.resolve({ child, pid });
  }
  return new Promise((resolve) => {
    child.once('error', (err) => resolve({ error: err.message }));
  });
}
