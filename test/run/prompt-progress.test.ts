import { describe, expect, it } from 'vitest';
import type { CheckResult, IterationRecord } from '../../src/engine/core/types.js';
import type { RunEvent } from '../../src/run/events.js';
import { jsonLinesSink } from '../../src/run/events.js';
import { progressSink } from '../../src/run/progress.js';
import { buildPrompt, compactTail, type PromptInput } from '../../src/run/prompt.js';

const task: PromptInput['task'] = {
  number: 2,
  name: 'Task 2: Fix slugify',
  type: 'auto',
  files: ['src/slugify.js'],
  elements: { action: 'Lower-case the slug.', verify: 'node test/slugify.test.mjs', done: 'slugs are lower case' },
  checks: [
    { kind: 'command_succeeds', command: 'node test/slugify.test.mjs', source: { element: 'verify', line: 10 } },
    { kind: 'file_exists', path: 'src/slugify.js', source: { element: 'done', line: 11 } },
  ],
  manual: ['slugs read well'],
};

function check(over: Partial<CheckResult> = {}): CheckResult {
  return { index: 0, kind: 'command_succeeds', command: 'node test/slugify.test.mjs', passed: false, exit_code: 1, signal: null, timed_out: false, duration_ms: 10, output_tail: 'AssertionError: expected "a-b", got "A-B"', fingerprint: 'AssertionError: expected "a-b", got "A-B"', ...over };
}

function iteration(n: number, over: Partial<IterationRecord> = {}): IterationRecord {
  return {
    iteration: n,
    started_at: '2026-01-01T00:00:00.000Z',
    finished_at: '2026-01-01T00:00:01.000Z',
    duration_ms: 1000,
    passed: false,
    checks: [check(), check({ index: 1, kind: 'file_exists', command: 'file_exists src/slugify.js', passed: true, exit_code: 0, output_tail: '', fingerprint: null })],
    fingerprint: 'AssertionError: expected "a-b", got "A-B"',
    progress: true,
    progress_reasons: ['fingerprint changed'],
    diff_hash: 'abc',
    files_changed: ['src/slugify.js'],
    done_confirmed: false,
    verdict: 'retry',
    stop_reason: null,
    ...over,
  };
}

const base: PromptInput = {
  plan: { id: '01-02', path: '.planning/phases/01-x/01-02-PLAN.md', objective: 'Fix the helpers.', task_count: 4 },
  task,
  iteration: 1,
  max_iterations: 3,
  mode: 'loop',
  history: [],
  notes: [],
  completed: [],
  checkpoint_replies: [],
};

describe('buildPrompt', () => {
  it('states the task, how it is verified, the rules and the promises, with stable header lines', () => {
    const p = buildPrompt(base);
    expect(p).toMatch(/^Plan: \.planning\/phases\/01-x\/01-02-PLAN\.md \(id 01-02\)$/m);
    expect(p).toMatch(/^Task 2 of 4: Task 2: Fix slugify$/m);
    expect(p).toMatch(/^Iteration 1 of 3$/m);
    expect(p).toContain('<files>src/slugify.js</files>');
    expect(p).toContain('<action>\nLower-case the slug.\n</action>');
    expect(p).toContain('- `node test/slugify.test.mjs` exits 0');
    expect(p).toContain('- file exists: src/slugify.js');
    expect(p).toContain('- slugs read well');
    expect(p).toContain('<ralph>TASK_DONE</ralph>');
    expect(p).toContain('<ralph>BLOCKED</ralph>');
    expect(p).toContain('Rule 4');
    expect(p).not.toContain('Earlier iterations');
  });
  it('carries the history, the last failure and notes into the next iteration', () => {
    const p = buildPrompt({
      ...base,
      iteration: 2,
      history: [iteration(1)],
      notes: [{ iteration: 1, note: 'that iteration said TASK_DONE but verification failed (suspicious)' }],
      completed: [{ number: 1, name: 'Task 1: Setup', commit: 'abcdef1234567' }],
      checkpoint_replies: [{ number: 3, name: 'Task 3: Look', reply: 'approved' }],
    });
    expect(p).toMatch(/^Iteration 2 of 3$/m);
    expect(p).toContain('- iteration 1: failed; fingerprint "AssertionError: expected \\"a-b\\", got \\"A-B\\""; 1/2 checks passed; progress (fingerprint changed); files changed: src/slugify.js; note: that iteration said TASK_DONE but verification failed (suspicious)');
    expect(p).toContain('## Last verification failure (iteration 1)');
    expect(p).toContain('$ node test/slugify.test.mjs  (exit 1)');
    expect(p).toContain('- Task 1: Task 1: Setup (commit abcdef1)');
    expect(p).toContain('- Task 3 (Task 3: Look): "approved"');
  });
  it('shows notes for an iteration that has not happened yet', () => {
    const p = buildPrompt({ ...base, iteration: 2, history: [iteration(1)], notes: [{ iteration: 2, note: 'all checks pass now' }] });
    expect(p).toContain('Note: all checks pass now');
  });
  it('compacts long output to its head and tail', () => {
    const long = Array.from({ length: 400 }, (_, i) => `line ${i}`).join('\n');
    const c = compactTail(long, 600);
    expect(c.length).toBeLessThan(700);
    expect(c).toContain('line 0');
    expect(c).toContain('line 399');
    expect(c).toMatch(/characters cut/);
    expect(compactTail('\u001b[31mred\u001b[39m')).toBe('red');
  });
  it('describes a single unlooped run and the plan-level loop', () => {
    expect(buildPrompt({ ...base, mode: 'once' })).toMatch(/^Single run/m);
    const plan = buildPrompt({ ...base, task: null, plan_checks: [{ kind: 'tests_pass', command: 'npm test', source: { element: 'verification', line: 1 } }] });
    expect(plan).toMatch(/^Plan-level verification of 01-02/m);
    expect(plan).toContain('- tests pass: `npm test`');
  });
});

function ev(body: Record<string, unknown>): RunEvent {
  return { ts: '2026-01-01T00:00:00.000Z', elapsed_ms: 0, ...body } as unknown as RunEvent;
}

const EVENTS: RunEvent[] = [
  ev({ type: 'run_start', target: 'PLAN.md', target_kind: 'gsd-plan', project_root: '/p', agent: 'claude', plans: [{ id: '01-01', path: '/p/PLAN.md', tasks: 2 }], budgets: { duration_ms: null, max_tokens: null }, iteration_timeout_ms: 1000, commit: true }),
  ev({ type: 'plan_start', plan_id: '01-01', path: '/p/PLAN.md', tasks: 2 }),
  ev({ type: 'task_start', plan_id: '01-01', task: 1, name: 'Fix it', task_count: 2, decision: 'loop', iterations_done: 0, max_iterations: 3, earlier: null }),
  ev({ type: 'agent_start', plan_id: '01-01', task: 1, iteration: 1, attempt: 1, pid: null, command: 'claude', timeout_ms: 1000, log: null }),
  ev({ type: 'agent_output', plan_id: '01-01', task: 1, iteration: 1, tokens: 1500 }),
  ev({ type: 'agent_exit', plan_id: '01-01', task: 1, iteration: 1, attempt: 1, exit_code: 1, signal: null, timed_out: false, duration_ms: 100, usage: null, promise: null, classification: 'transient', reason: 'rate_limit', detail: '429' }),
  ev({ type: 'backoff', plan_id: '01-01', task: 1, iteration: 1, attempt: 1, reason: 'rate_limit', delay_ms: 1000, detail: '429 too many requests' }),
  ev({ type: 'verify', plan_id: '01-01', task: 1, iteration: 1, max_iterations: 3, verdict: 'retry', stop_reason: null, fingerprint: 'Error: boom', progress: true, checks_passed: 0, checks_total: 1, suspicious: true, message: 'failed' }),
  ev({ type: 'task_end', plan_id: '01-01', task: 1, name: 'Fix it', outcome: 'passed', stop_reason: 'success', iterations: 2, commit: 'abc', detail: null, handoff: null }),
  ev({ type: 'run_end', exit_code: 0, outcome: 'complete', reason: null, detail: null, tokens: 1500, tasks: [] }),
];

describe('progress view', () => {
  it('prints plain milestone lines when not on a TTY', () => {
    let out = '';
    const sink = progressSink({ stream: { write: (s: string) => ((out += s), true), isTTY: false } });
    for (const e of EVENTS) sink.emit(e);
    sink.close();
    expect(out).not.toContain('\r');
    expect(out).toContain('  Task 1: Fix it\n');
    expect(out).toContain('rate_limit: 429 too many requests; retrying in 1.0s (attempt 2, not an iteration)');
    expect(out).toContain('verify 1/3: retry (0/1 checks) fp Error: boom — said TASK_DONE but checks failed (suspicious)');
    expect(out).toContain('✓ Task 1: passed after 2 iteration(s)');
  });
  it('redraws one status line in place on a TTY', () => {
    let out = '';
    const sink = progressSink({ stream: { write: (s: string) => ((out += s), true), isTTY: true, columns: 200 }, color: false, tickMs: 0, now: () => 0 });
    for (const e of EVENTS.slice(0, 5)) sink.emit(e);
    expect(out).toContain('\r\u001b[2K');
    const status = out.split('\r\u001b[2K').at(-1)!;
    expect(status).toBe('ralf run · 01-01 task 1/2 · iteration 1/3 · agent working · 0.0s · 1.5k tok');
    sink.close();
    expect(out.endsWith('\r\u001b[2K')).toBe(true);
  });
  it('--json writes one object per line and leaves out the live token ticks', () => {
    const lines: string[] = [];
    const sink = jsonLinesSink((s) => void lines.push(s));
    for (const e of EVENTS) sink.emit(e);
    expect(lines.every((l) => l.endsWith('\n') && !l.slice(0, -1).includes('\n'))).toBe(true);
    expect(lines.map((l) => (JSON.parse(l) as { type: string }).type)).toEqual(['run_start', 'plan_start', 'task_start', 'agent_start', 'agent_exit', 'backoff', 'verify', 'task_end', 'run_end']);
  });
});
