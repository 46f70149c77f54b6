/**
 * Sorts a finished agent process into what the driver does next: carry on to verification
 * (`ok`, `failed`), wait and retry the same iteration (`transient`: rate limits, overload,
 * network trouble; not an iteration), or stop (`hard`: the agent cannot start or is not
 * authenticated: the run stops; the environment refuses its work, `Permission denied`: the
 * task stops at once, as the Persistence Loop's hard failure). Pure: the process result comes in as data.
 *
 * Text patterns are only consulted when the process failed (non-zero exit, or the host's
 * own stream reported an error): an agent that succeeds while talking about "rate limits"
 * in the code it writes must not be retried.
 */
export interface AgentProcessOutcome {
  exitCode: number | null;
  signal: string | null;
  /** Killed by the driver's per-iteration timeout. */
  timedOut: boolean;
  /** The spawn itself failed (ENOENT, EACCES, ...). */
  spawnErrorCode: string | null;
  /** Bounded tail of stdout / stderr. */
  stdoutTail: string;
  stderrTail: string;
  /** An error the host reported in its structured stream (e.g. claude `result.is_error`). */
  hostError: { status: number | null; message: string } | null;
}

export type AgentFailureKind = 'ok' | 'failed' | 'transient' | 'hard';

export interface AgentClassification {
  kind: AgentFailureKind;
  /** Short machine word: `rate_limit`, `overloaded`, `network`, `server_error`, `not_found`, `not_executable`, `auth`, `exit_code`, `signal`, `timeout`. */
  reason: string | null;
  /** One line for humans. */
  detail: string;
  /** Seconds the host asked us to wait, when it said so. */
  retryAfterSeconds: number | null;
}

const TRANSIENT_STATUS = new Map<number, string>([
  [408, 'network'],
  [409, 'server_error'],
  [425, 'network'],
  [429, 'rate_limit'],
  [500, 'server_error'],
  [502, 'server_error'],
  [503, 'overloaded'],
  [504, 'network'],
  [529, 'overloaded'],
]);

const AUTH_PATTERNS: RegExp[] = [
  /\bauthentication[_ ]error\b/i,
  /\binvalid (x-)?api[- ]key\b/i,
  /\b(?:not logged in|please run \/?login|not authenticated)\b/i,
  /\b(?:401|403)\b.*\b(?:unauthori[sz]ed|forbidden)\b/i,
  /\bunauthori[sz]ed\b/i,
  /\bmissing (?:an? )?api[_ ]key\b/i,
  /\b(?:ANTHROPIC|OPENAI)_API_KEY\b.*\b(?:not set|missing|required)\b/i,
  /\bcredit balance is too low\b/i,
];

// A bare status number counts only next to a word that makes it one ("HTTP 503", "(429)",
// "status: 529"), so test counts like "503 passed" in a failing agent's output don't.
const STATUS_NEAR = (codes: string) =>
  new RegExp(`(?:\\b(?:http|status|error|code)\\b[^\\n]{0,24}?|\\()\\b(?:${codes})\\b|\\b(?:${codes})\\b\\)?\\s*(?:too many|rate|overloaded|service unavailable|bad gateway|gateway time)`, 'i');

const PERMISSION_PATTERNS: RegExp[] = [/\bpermission denied\b/i, /\boperation not permitted\b/i, /\bread-only file system\b/i, /\b(?:EACCES|EPERM|EROFS)\b/];

const TRANSIENT_PATTERNS: Array<[RegExp, string]> = [
  [STATUS_NEAR('429'), 'rate_limit'],
  [/\brate[ _-]?limit(?:ed|s)?\b|\btoo many requests\b|\bquota exceeded\b/i, 'rate_limit'],
  [STATUS_NEAR('529'), 'overloaded'],
  [/\boverloaded\b/i, 'overloaded'],
  [/\b(?:ECONNRESET|ECONNREFUSED|ETIMEDOUT|EPIPE|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH)\b|\bsocket hang up\b|\bnetwork error\b|\bfetch failed\b|\bconnection (?:reset|refused|error)\b/i, 'network'],
  [STATUS_NEAR('50[0234]'), 'server_error'],
  [/\btemporarily unavailable\b|\bservice unavailable\b|\bbad gateway\b|\bgateway time-?out\b|\binternal server error\b|\btry again later\b/i, 'server_error'],
];

export function classifyAgentRun(o: AgentProcessOutcome): AgentClassification {
  const none = { retryAfterSeconds: null };
  if (o.spawnErrorCode === 'ENOENT') return { kind: 'hard', reason: 'not_found', detail: 'agent command not found', ...none };
  if (o.spawnErrorCode === 'EACCES') return { kind: 'hard', reason: 'not_executable', detail: 'agent command is not executable', ...none };
  if (o.spawnErrorCode) return { kind: 'hard', reason: 'spawn_failed', detail: `could not start the agent (${o.spawnErrorCode})`, ...none };
  if (o.timedOut) return { kind: 'failed', reason: 'timeout', detail: 'iteration timed out; the agent was killed', ...none };

  const failed = o.exitCode !== 0 || o.hostError !== null;
  if (!failed) return { kind: 'ok', reason: null, detail: 'exit 0', ...none };

  const text = [o.hostError?.message ?? '', o.stderrTail, o.stdoutTail].join('\n');
  const retryAfterSeconds = parseRetryAfter(text);
  const status = o.hostError?.status ?? null;
  const firstLine = firstMeaningfulLine(o.hostError?.message || o.stderrTail || o.stdoutTail);

  if (status === 401 || status === 403) return { kind: 'hard', reason: 'auth', detail: `authentication failed (${status}): ${firstLine}`, retryAfterSeconds: null };
  const byStatus = status !== null ? TRANSIENT_STATUS.get(status) : undefined;
  if (byStatus) return { kind: 'transient', reason: byStatus, detail: `${status}: ${firstLine}`, retryAfterSeconds };

  if (o.exitCode === 127) return { kind: 'hard', reason: 'not_found', detail: `exit 127 (command not found): ${firstLine}`, retryAfterSeconds: null };
  if (o.exitCode === 126) return { kind: 'hard', reason: 'not_executable', detail: `exit 126 (not executable): ${firstLine}`, retryAfterSeconds: null };

  for (const re of AUTH_PATTERNS) if (re.test(text)) return { kind: 'hard', reason: 'auth', detail: `authentication failed: ${matchLine(text, re)}`, retryAfterSeconds: null };
  // The environment refuses the agent's work: another attempt meets the same wall (the Persistence Loop's hard failure).
  for (const re of PERMISSION_PATTERNS) if (re.test(text)) return { kind: 'hard', reason: 'permission', detail: `hard failure: ${matchLine(text, re)}`, retryAfterSeconds: null };
  for (const [re, reason] of TRANSIENT_PATTERNS) if (re.test(text)) return { kind: 'transient', reason, detail: matchLine(text, re), retryAfterSeconds };

  if (o.signal) return { kind: 'failed', reason: 'signal', detail: `killed by ${o.signal}`, retryAfterSeconds: null };
  return { kind: 'failed', reason: 'exit_code', detail: `exit ${o.exitCode ?? '?'}${firstLine ? `: ${firstLine}` : ''}`, retryAfterSeconds: null };
}

function parseRetryAfter(text: string): number | null {
  const m = /retry[- _]?after["':\s]+(\d+(?:\.\d+)?)/i.exec(text);
  return m ? Number(m[1]) : null;
}

function firstMeaningfulLine(text: string): string {
  const line = text.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

function matchLine(text: string, re: RegExp): string {
  const line = text.split('\n').find((l) => re.test(l)) ?? '';
  return firstMeaningfulLine(line);
}
