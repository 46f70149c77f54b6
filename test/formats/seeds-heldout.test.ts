// The held-out seed set (test/fixtures/seeds-heldout/, README there): realistic files of the
// other loop tools, each with the reading its expected.json says is right, written before ralf
// read it. This test scores how many seeds are read as expected and holds the score at its
// floor; every seed's difference is printed, so a drop says which seed and how.
import { cpSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRunTarget } from '../../src/formats/detect.js';
import type { Check, PlanTask } from '../../src/plan/model.js';
import { repoRoot, tempDir } from '../helpers/cli.js';

/** Seeds read as expected at the last scoring (README: before and after). */
const FLOOR = 50;

interface ExpectedTask {
  name: string;
  decision: 'loop' | 'skip' | 'refuse';
  checks?: string[];
  manual?: number;
  not_runnable?: boolean;
  files?: string[];
}
interface Expected {
  target: string;
  history?: string;
  tests_command?: string;
  /** learnings: lines the agent's prompt must carry from the tool's progress log (iterationContext). */
  expect: { tasks: ExpectedTask[]; learnings?: string[] } | { error: { line: number; mentions: string[] } };
}

const root = join(repoRoot, 'test/fixtures/seeds-heldout');
const seeds = readdirSync(root, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

function checkText(c: Check): string {
  switch (c.kind) {
    case 'file_exists':
      return `file_exists: ${c.path}`;
    case 'contains_text':
      return `contains_text: ${c.path}: ${c.text}`;
    case 'min_lines':
      return `min_lines: ${c.path}: ${c.min_lines}`;
    default:
      return `${c.kind}: ${c.command}`;
  }
}

/** What a task is, in the terms of expected.json (only the fields the seed states). */
function reading(task: PlanTask, want: ExpectedTask | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { name: task.name, decision: task.decision };
  if (want?.checks !== undefined) out.checks = task.checks.map(checkText);
  if (want?.manual !== undefined) out.manual = task.manual.length;
  if (want?.not_runnable !== undefined) out.not_runnable = task.not_runnable !== undefined;
  if (want?.files !== undefined) out.files = task.files;
  return out;
}

async function score(seed: string): Promise<{ ok: boolean; diff: string }> {
  const expected = JSON.parse(readFileSync(join(root, seed, 'expected.json'), 'utf8')) as Expected;
  // A copy: reading must not need (or change) anything beside the seed.
  const dir = tempDir('ralf-seed-');
  cpSync(join(root, seed), dir, { recursive: true });
  const options = {
    ...(expected.tests_command ? { tests_command: expected.tests_command } : {}),
    ...(expected.history ? { historyPath: join(dir, expected.history) } : {}),
  };
  let got: unknown;
  try {
    const target = await loadRunTarget(join(dir, expected.target), options);
    const tasks = target.plans.flatMap((p) => p.tasks);
    if ('error' in expected.expect) return { ok: false, diff: `expected an error, read ${tasks.length} tasks` };
    const want = expected.expect.tasks;
    got = tasks.map((t, i) => reading(t, want[i]));
    const wanted = want.map((w) => ({ ...w }));
    const readingOk = JSON.stringify(got) === JSON.stringify(wanted.map((w, i) => reorder(w, (got as Array<Record<string, unknown>>)[i])));
    const plan = target.plans[0]!;
    const context = expected.expect.learnings && plan.tasks[0] ? (target.iterationContext?.(plan, plan.tasks[0].number).learnings ?? '') : '';
    const missing = (expected.expect.learnings ?? []).filter((l) => !context.includes(l));
    const ok = readingOk && missing.length === 0;
    return { ok, diff: ok ? '' : `${readingOk ? '' : `got ${JSON.stringify(got)}\n   want ${JSON.stringify(wanted)}`}${missing.length ? `\n   learnings missing from the prompt: ${JSON.stringify(missing)}` : ''}` };
  } catch (err) {
    const e = err as Error & { problems?: Array<{ line?: number }> };
    const text = `${e.message}\n${JSON.stringify(e.problems ?? [])}`;
    if (!('error' in expected.expect)) return { ok: false, diff: `error: ${e.message}` };
    const { line, mentions } = expected.expect.error;
    const lineOk = (e.problems ?? []).some((p) => p.line === line);
    const missing = mentions.filter((m) => !text.toLowerCase().includes(m.toLowerCase()));
    const ok = lineOk && missing.length === 0;
    return { ok, diff: ok ? '' : `error ${JSON.stringify(text)}: line ${line} ${lineOk ? 'ok' : 'missing'}; missing ${JSON.stringify(missing)}` };
  }
}

/** The expected task with its keys in the order `reading` writes them (a stable comparison). */
function reorder(want: ExpectedTask, got: Record<string, unknown> | undefined): Record<string, unknown> {
  const order = ['name', 'decision', 'checks', 'manual', 'not_runnable', 'files'];
  const out: Record<string, unknown> = {};
  for (const k of order) if ((want as unknown as Record<string, unknown>)[k] !== undefined) out[k] = (want as unknown as Record<string, unknown>)[k];
  void got;
  return out;
}

describe('held-out seeds of the other loop tools (test/fixtures/seeds-heldout)', () => {
  it(`reads at least ${FLOOR} of ${seeds.length} seeds as their expected.json says`, async () => {
    const results: string[] = [];
    let passed = 0;
    for (const seed of seeds) {
      const { ok, diff } = await score(seed);
      if (ok) passed++;
      results.push(`${ok ? 'ok  ' : 'FAIL'} ${seed}${diff ? `\n   ${diff}` : ''}`);
    }
    console.log(`held-out seeds: ${passed}/${seeds.length}\n${results.join('\n')}`);
    expect(seeds.length).toBeGreaterThanOrEqual(20);
    expect(passed, results.filter((r) => r.startsWith('FAIL')).join('\n')).toBeGreaterThanOrEqual(FLOOR);
  });
});
