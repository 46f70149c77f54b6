import { describe, expect, it } from 'vitest';
import { backoffDelayMs } from '../../src/run/backoff.js';
import { exhaustedBudget, iterationTimeoutMs } from '../../src/run/budget.js';
import { classifyAgentRun, type AgentProcessOutcome } from '../../src/run/classify.js';
import { formatCommandLine, splitCommandLine, substitutePrompt } from '../../src/run/command-line.js';
import { formatElapsed, parseDuration } from '../../src/run/duration.js';
import { parsePromise } from '../../src/run/promise.js';
import { commitMessage } from '../../src/run/git-ops.js';

describe('parseDuration', () => {
  it.each([
    ['90s', 90_000],
    ['15m', 900_000],
    ['4h', 14_400_000],
    ['1h30m', 5_400_000],
    ['1h 30m', 5_400_000],
    ['2d', 172_800_000],
    ['500ms', 500],
    ['45', 45_000],
    ['1.5h', 5_400_000],
    ['10min', 600_000],
    [' 5S ', 5000],
  ])('%s → %d ms', (text, ms) => expect(parseDuration(text)).toBe(ms));
  it.each(['', 'h', '4x', '1h30', '-5m', '0s', 'soon', '4h!'])('rejects %j', (text) => expect(parseDuration(text)).toBeNull());
  it('formats elapsed time compactly', () => {
    expect(formatElapsed(4200)).toBe('4.2s');
    expect(formatElapsed(95_000)).toBe('1m35s');
    expect(formatElapsed(3_723_000)).toBe('1h02m03s');
  });
});

describe('backoffDelayMs', () => {
  const schedule = [1, 2, 4, 8, 16];
  it('follows the schedule with ±25 % jitter and ends when it is used up', () => {
    expect(backoffDelayMs(schedule, 0, () => 0.5)).toBe(1000);
    expect(backoffDelayMs(schedule, 2, () => 0)).toBe(3000);
    expect(backoffDelayMs(schedule, 2, () => 1)).toBe(5000);
    expect(backoffDelayMs(schedule, 4, () => 0.5)).toBe(16_000);
    expect(backoffDelayMs(schedule, 5, () => 0.5)).toBeNull();
  });
  it('never waits less than a Retry-After hint', () => {
    expect(backoffDelayMs(schedule, 0, () => 0.5, 30)).toBe(30_000);
    expect(backoffDelayMs(schedule, 4, () => 0.5, 1)).toBe(16_000);
  });
  it('treats a broken random source as the midpoint', () => {
    expect(backoffDelayMs([2], 0, () => Number.NaN)).toBe(2000);
  });
});

describe('classifyAgentRun', () => {
  const base: AgentProcessOutcome = { exitCode: 0, signal: null, timedOut: false, spawnErrorCode: null, stdoutTail: '', stderrTail: '', hostError: null };
  const c = (o: Partial<AgentProcessOutcome>) => classifyAgentRun({ ...base, ...o });

  it('exit 0 is ok even when the output talks about rate limits', () => {
    expect(c({ stdoutTail: 'implemented the rate limit middleware (429 Too Many Requests)' }).kind).toBe('ok');
  });
  it.each([
    ['Error: 429 Too Many Requests', 'rate_limit'],
    ['API Error: Request rejected (429) · Rate limited', 'rate_limit'],
    ['rate limit exceeded, slow down', 'rate_limit'],
    ['{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', 'overloaded'],
    ['HTTP 529', 'overloaded'],
    ['Error: read ECONNRESET', 'network'],
    ['request to https://api failed: socket hang up', 'network'],
    ['503 Service Unavailable', 'server_error'],
    ['the service is temporarily unavailable', 'server_error'],
  ])('%j is transient (%s)', (stderr, reason) => {
    const r = c({ exitCode: 1, stderrTail: stderr });
    expect(r.kind).toBe('transient');
    expect(r.reason).toBe(reason);
  });
  it('does not take test counts for HTTP statuses', () => {
    expect(c({ exitCode: 1, stdoutTail: 'Tests: 503 passed, 2 failed' }).kind).toBe('failed');
  });
  it.each([
    ['Invalid API key · Please run /login', 'auth'],
    ['{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}', 'auth'],
    ['Error: Not logged in', 'auth'],
  ])('%j is a hard failure', (stderr, reason) => {
    const r = c({ exitCode: 1, stderrTail: stderr });
    expect(r.kind).toBe('hard');
    expect(r.reason).toBe(reason);
  });
  it('reads the status the host reported in its stream first', () => {
    expect(c({ exitCode: 1, hostError: { status: 429, message: 'API Error' } })).toMatchObject({ kind: 'transient', reason: 'rate_limit' });
    expect(c({ exitCode: 0, hostError: { status: 529, message: 'Overloaded' } })).toMatchObject({ kind: 'transient', reason: 'overloaded' });
    expect(c({ exitCode: 1, hostError: { status: 401, message: 'invalid x-api-key' } })).toMatchObject({ kind: 'hard', reason: 'auth' });
  });
  it('spawn failures and shell exit codes 126/127 are hard', () => {
    expect(c({ exitCode: null, spawnErrorCode: 'ENOENT' })).toMatchObject({ kind: 'hard', reason: 'not_found' });
    expect(c({ exitCode: 127, stderrTail: 'sh: 1: nope: not found' })).toMatchObject({ kind: 'hard', reason: 'not_found' });
    expect(c({ exitCode: 126 })).toMatchObject({ kind: 'hard', reason: 'not_executable' });
  });
  it('an unexplained non-zero exit is an ordinary iteration; a timeout too', () => {
    expect(c({ exitCode: 2, stderrTail: 'TypeError: x is undefined' })).toMatchObject({ kind: 'failed', reason: 'exit_code' });
    expect(c({ exitCode: null, signal: 'SIGTERM', timedOut: true })).toMatchObject({ kind: 'failed', reason: 'timeout' });
  });
  it('picks up Retry-After', () => {
    expect(c({ exitCode: 1, stderrTail: '429 too many requests; retry-after: 7' }).retryAfterSeconds).toBe(7);
  });
});

describe('parsePromise', () => {
  it('finds DONE and BLOCKED; the last one wins', () => {
    expect(parsePromise('all good\n<ralph>TASK_DONE</ralph>\n')).toEqual({ kind: 'done' });
    expect(parsePromise('<ralph>TASK_DONE</ralph> wait, no\n<ralph>BLOCKED</ralph> needs STRIPE_KEY')).toEqual({ kind: 'blocked', reason: 'needs STRIPE_KEY' });
    expect(parsePromise('I tried.\n<ralph>BLOCKED</ralph>\nReason: the API needs a human login\n')).toEqual({ kind: 'blocked', reason: 'the API needs a human login' });
    expect(parsePromise('Rule 4: a new table is needed\n<ralph>BLOCKED</ralph>')).toEqual({ kind: 'blocked', reason: 'Rule 4: a new table is needed' });
    expect(parsePromise('< ralph>TASK_DONE')).toBeNull();
    expect(parsePromise('<RALPH> task_done </RALPH>')).toEqual({ kind: 'done' });
  });
  it('ignores an echo of the prompt, which explains the promises', () => {
    const prompt = 'When done, end with <ralph>TASK_DONE</ralph>; if stuck, <ralph>BLOCKED</ralph>.';
    expect(parsePromise(`you said: ${prompt}\nworking...`, prompt)).toBeNull();
    expect(parsePromise(`${prompt}\n<ralph>TASK_DONE</ralph>`, prompt)).toEqual({ kind: 'done' });
  });
});

describe('command lines', () => {
  it('splits like a shell, without running one', () => {
    expect(splitCommandLine(`node "my agent.js" --flag='a b' {prompt}`)).toEqual(['node', 'my agent.js', '--flag=a b', '{prompt}']);
    expect(splitCommandLine(`a\\ b "c\\"d" '$HOME' ''`)).toEqual(['a b', 'c"d', '$HOME', '']);
    expect(() => splitCommandLine('node "unterminated')).toThrow(/unterminated double quote/);
  });
  it('substitutes the prompt as plain text into one argv element, or uses stdin', () => {
    const prompt = `it's "quoted" $(rm -rf /) \`x\``;
    expect(substitutePrompt(['agent', '--prompt={prompt}'], prompt)).toEqual({ argv: ['agent', `--prompt=${prompt}`], stdin: null });
    expect(substitutePrompt(['agent', '-'], prompt)).toEqual({ argv: ['agent', '-'], stdin: prompt });
  });
  it('formats argv so that it splits back the same', () => {
    const argv = ['node', '/a b/agent.mjs', "it's", '{prompt}', ''];
    expect(splitCommandLine(formatCommandLine(argv))).toEqual(argv);
  });
});

describe('budgets', () => {
  const use = { started_at_ms: 1000, now_ms: 1000, tokens: 0 };
  it('time and token budgets stop the run; none by default', () => {
    expect(exhaustedBudget({ duration_ms: null, max_tokens: null }, { ...use, now_ms: 1e12, tokens: 1e12 })).toBeNull();
    expect(exhaustedBudget({ duration_ms: 5000, max_tokens: null }, { ...use, now_ms: 6000 })).toMatchObject({ reason: 'time_budget', budget: 'time' });
    expect(exhaustedBudget({ duration_ms: 5000, max_tokens: null }, { ...use, now_ms: 5999 })).toBeNull();
    expect(exhaustedBudget({ duration_ms: null, max_tokens: 100 }, { ...use, tokens: 100 })).toMatchObject({ reason: 'token_budget', budget: 'token' });
  });
  it('caps an iteration by the time left', () => {
    expect(iterationTimeoutMs({ duration_ms: 10_000, max_tokens: null }, { ...use, now_ms: 8000 }, 60_000)).toBe(3000);
    expect(iterationTimeoutMs({ duration_ms: null, max_tokens: null }, use, 60_000)).toBe(60_000);
  });
});

describe('commitMessage', () => {
  it('uses GSD\'s feat({plan-id}): form without the "Task N:" prefix', () => {
    expect(commitMessage('01-02', 'Task 3: Wire login')).toBe('feat(01-02): Wire login');
    expect(commitMessage('prd', 'Add search')).toBe('feat(prd): Add search');
  });
});
