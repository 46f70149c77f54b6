/**
 * `ralf hook stop`: the Claude Code Stop/SubagentStop hook (and what ralf's OpenCode
 * plugin runs on session.idle). Reads the host's hook JSON on stdin; when a loop started
 * in this session is still open, prints `{"decision":"block","reason":...}` so the host
 * keeps the agent going; otherwise prints nothing. Always exits 0 and fails open: any
 * error allows the stop and prints one line to stderr.
 */
import { parseCommandArgs } from '../cli/args.js';
import { printJson, writeStderr, writeStdout } from '../cli/output.js';
import { usageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { commandInvocation } from '../engine/shell/invocation.js';
import { runStopHook, type HookInput, type StopHookResult } from '../hook/stop-hook.js';

export const USAGE = 'ralf hook stop [--json]   (reads the host\'s Stop hook JSON on stdin: session_id, cwd, stop_hook_active, ...)';

const MAX_INPUT_BYTES = 1024 * 1024;
const STDIN_WAIT_MS = 5000;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {}, USAGE);
  if (positionals[0] !== 'stop' || positionals.length > 1) throw usageError(positionals[0] === undefined ? 'missing hook name (stop)' : `unknown hook "${positionals.slice(0).join(' ')}" (expected: stop)`, `usage: ${USAGE}`);
  let result: StopHookResult;
  try {
    const input = await readInput();
    if (values.cwd !== undefined && input.cwd === undefined) input.cwd = values.cwd;
    result = runStopHook({ input, runtime: commandInvocation() });
  } catch (err) {
    // Fail open: a broken hook must never trap the agent.
    writeStderr(`ralf hook stop: ${(err as Error).message ?? String(err)}; allowing the stop\n`);
    result = { decision: 'allow', why: 'error', reason: null, project_root: null, plan_id: null, task: null, blocks: null, max_blocks: null };
  }
  if (values.json) printJson(result);
  else if (result.decision === 'block') writeStdout(`${JSON.stringify({ decision: 'block', reason: result.reason })}\n`);
  return ExitCode.ok;
}

/** The hook JSON on stdin (bounded in size and time; a terminal or an empty stdin is no input). */
function readInput(): Promise<HookInput> {
  if (process.stdin.isTTY) return Promise.resolve({});
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    // A host that never closes stdin must not hang the stop: after a while, decide on what came.
    const timer = setTimeout(() => finish(), STDIN_WAIT_MS);
    const finish = (err?: Error) => {
      clearTimeout(timer);
      process.stdin.removeAllListeners();
      process.stdin.pause();
      if (err) return reject(err);
      try {
        const text = Buffer.concat(chunks).toString('utf8').trim();
        if (text === '') return resolve({});
        const value = JSON.parse(text) as unknown;
        if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('hook input on stdin is not a JSON object');
        resolve(value as HookInput);
      } catch (e) {
        reject(e as Error);
      }
    };
    process.stdin.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > MAX_INPUT_BYTES) return finish(new Error(`hook input on stdin is larger than ${MAX_INPUT_BYTES} bytes`));
      chunks.push(chunk);
    });
    process.stdin.on('end', () => finish());
    process.stdin.on('error', (e) => finish(e));
  });
}
