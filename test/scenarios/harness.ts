/**
 * Verdict scenarios: a real temp git repo with a GSD plan whose <verify> runs a real test
 * runner (runners.ts), an agent's edits applied one by one, and `ralf task verify --json`
 * after each, as an agent runs it. A scenario's result is its trail of verdicts, one short
 * word per verify, so a wrong verdict shows as a readable diff:
 *
 *   retry+  retry, progress      retry-  retry, no progress
 *   pass    stop:<stop_reason>   confirm
 */
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers/cli.js';
import { runRalf, TempRepo } from '../engine/project.js';
import type { Code, Runner, Suite } from './runners.js';

export const PLAN = '.planning/phases/01-units/01-01-PLAN.md';

/** Unit names that sort in the order they are listed (first, middle, last by name). */
export const NAMES = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];

export interface Limits {
  max_iterations?: number;
  error_fingerprint_repeats?: number;
  no_progress_repeats?: number;
}

export interface ScenarioOptions {
  /** Units and the values they must return; every unit starts wrong (0) unless `start` says otherwise. */
  want: Record<string, number>;
  start?: Partial<Code>;
  suite?: Partial<Suite>;
  limits?: Limits;
  /** The checks of the task, in order (default: the runner's own check). */
  checks?: string[];
  /** More files (paths → content). */
  files?: Record<string, string>;
  /** The task's <files> (default: the runner's source files). */
  taskFiles?: string[];
  /** More `ralf_lite` config keys (check_timeout_seconds, stop_on_first_failure, …). */
  config?: Record<string, unknown>;
}

export interface Verified {
  code: number | undefined;
  json: any;
  /** One word: retry+, retry-, pass, confirm, stop:<reason>. */
  word: string;
}

/** One call of the scripted agent: a change to the model and/or other files. */
export interface AgentEdit {
  code?: Partial<Code>;
  suite?: Partial<Suite>;
  /** More files written (paths → content), after the model's. */
  write?: Record<string, string>;
  remove?: string[];
  /** Symlinks made (path → target), replacing what is there. */
  symlink?: Record<string, string>;
  /** Shell commands (git, as a real agent runs it) run before the edit, and after it. */
  git?: string[];
  gitAfter?: string[];
  /** Works this long after its edit before it answers. */
  sleep_ms?: number;
  /** Answers BLOCKED with this reason instead of DONE. */
  blocked?: string;
  /** Makes no promise at all (neither DONE nor BLOCKED). */
  silent?: boolean;
}

export interface AgentRun {
  code: number | undefined;
  events: any[];
  stdout: string;
  stderr: string;
}

export function word(json: any): string {
  if (!json) return 'no-json';
  if (json.verdict === 'retry') return json.progress ? 'retry+' : 'retry-';
  if (json.verdict === 'stop') return `stop:${json.stop_reason}`;
  return String(json.verdict);
}

export class Scenario extends TempRepo {
  code: Code;
  suite: Suite;
  private written = new Set<string>();
  readonly trail: string[] = [];
  readonly results: Verified[] = [];
  private runs = 0;

  constructor(readonly runner: Runner, opts: ScenarioOptions) {
    super(`ralf-scn-${runner.id.replace(/\W+/g, '-')}-`);
    this.code = { values: Object.fromEntries(Object.keys(opts.want).map((u) => [u, 0])), ...opts.start };
    this.suite = { want: opts.want, ...opts.suite };
    const sourceFiles = Object.keys(runner.source(this.code));
    const checks = opts.checks ?? [runner.verify];
    const limits = { max_iterations: 8, error_fingerprint_repeats: 2, no_progress_repeats: 2, ...opts.limits };
    this.write('.planning/config.json', `${JSON.stringify({ mode: 'yolo', ralf_lite: { check_timeout_seconds: 60, ...limits, ...opts.config } }, null, 2)}\n`);
    this.write(PLAN, planText(opts.taskFiles ?? sourceFiles, checks));
    this.write('.gitignore', ['.home/', ...runner.ignore, ''].join('\n'));
    for (const [path, content] of Object.entries(runner.base)) this.write(path, content);
    for (const [path, content] of Object.entries(opts.files ?? {})) this.write(path, content);
    if (runner.ignore.includes('node_modules')) symlinkSync(join(repoRoot, 'node_modules'), join(this.dir, 'node_modules'));
    this.sync();
    this.commitAll();
    // The user's identity, as any repo someone commits in has (ralf run commits passed tasks).
    this.git('config', 'user.name', 'Scenario User');
    this.git('config', 'user.email', 'user@example.invalid');
  }

  /** The agent's edit: a change to the code and/or the tests; files are rewritten only where they changed. */
  edit(change: { code?: Partial<Code>; suite?: Partial<Suite> } = {}): this {
    if (change.code) this.code = { ...this.code, ...change.code, values: { ...this.code.values, ...change.code.values } };
    if (change.suite) this.suite = { ...this.suite, ...change.suite };
    this.sync();
    return this;
  }

  /** Sets units to their wanted values. */
  fix(...units: string[]): this {
    return this.edit({ code: { values: Object.fromEntries(units.map((u) => [u, this.suite.want[u]!])) } });
  }

  private sync(): void {
    const files = { ...this.runner.source(this.code), ...this.runner.tests(this.suite) };
    for (const old of this.written) if (!(old in files)) rmSync(join(this.dir, old), { force: true });
    for (const [path, content] of Object.entries(files)) {
      if (this.written.has(path) && this.read(path) === content) continue;
      this.write(path, content);
    }
    this.written = new Set(Object.keys(files));
  }

  override env(): Record<string, string | undefined> {
    return super.env(this.runner.env);
  }

  ralf(args: string[]) {
    return runRalf(args, { cwd: this.dir, env: this.env() });
  }

  /** `ralf task verify <PLAN> 1 --json`, as the agent runs it; the verdict joins the trail. */
  async verify(...flags: string[]): Promise<Verified> {
    const r = await this.ralf(['task', 'verify', PLAN, '1', '--json', ...flags]);
    let json: any = null;
    try {
      json = JSON.parse(String(r.stdout));
    } catch {
      throw new Error(`verify printed no JSON (exit ${r.exitCode}):\n${String(r.stdout)}\n${String(r.stderr)}`);
    }
    const v = { code: r.exitCode, json, word: word(json) };
    this.trail.push(v.word);
    this.results.push(v);
    return v;
  }

  /** Runs the steps (an edit each, then a verify) until the loop ends or the steps run out; returns the trail. */
  async play(steps: Array<(s: this) => unknown>): Promise<string[]> {
    for (const step of steps) {
      await step(this);
      const v = await this.verify();
      if (v.json.verdict === 'pass' || v.json.verdict === 'stop') break;
    }
    return this.trail;
  }

  /**
   * `ralf run <PLAN> --json` with a scripted agent (agents/step-agent.mjs) that makes one of
   * `edits` per call and always claims it is done (or says it is blocked). An edit changes the
   * model (code, suite) and may also write, remove or symlink other files, or work for a while
   * (`sleep_ms`). `interruptAt`: SIGINT to `ralf run` once that iteration's agent made its edits.
   * Returns the run's exit code, events and output.
   */
  async runAgent(edits: AgentEdit[], opts: { args?: string[]; interruptAt?: number } = {}): Promise<AgentRun> {
    // The edits as the files each one leaves, computed from the model without touching the tree.
    let code = this.code;
    let suite = this.suite;
    let before = new Set(this.written);
    let previous: Record<string, string> = { ...this.runner.source(code), ...this.runner.tests(suite) };
    const steps = edits.map((e) => {
      if (e.code) code = { ...code, ...e.code, values: { ...code.values, ...e.code.values } };
      if (e.suite) suite = { ...suite, ...e.suite };
      const files = { ...this.runner.source(code), ...this.runner.tests(suite) };
      // Only the files this edit changes are written (an idle call writes nothing, not even through a link).
      const changed = Object.fromEntries(Object.entries(files).filter(([f, c]) => previous[f] !== c));
      previous = files;
      const step = { write: { ...changed, ...e.write }, remove: [...[...before].filter((f) => !(f in files)), ...(e.remove ?? [])], symlink: e.symlink, git: e.git, gitAfter: e.gitAfter, sleep_ms: e.sleep_ms, blocked: e.blocked, silent: e.silent };
      before = new Set(Object.keys(files));
      return step;
    });
    const stepsFile = join(this.home, `agent-steps-${this.runs++}.json`);
    writeFileSync(stepsFile, JSON.stringify(steps));
    const agent = `node ${JSON.stringify(join(repoRoot, 'test', 'scenarios', 'agents', 'step-agent.mjs'))} ${JSON.stringify(stepsFile)} {prompt}`;
    const child = this.ralf(['run', PLAN, '--agent', agent, '--json', ...(opts.args ?? [])]);
    if (opts.interruptAt !== undefined) {
      let buffered = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('utf8');
        for (const line of buffered.split('\n').slice(0, -1)) {
          if (line.includes('"agent_start"') && JSON.parse(line).iteration === opts.interruptAt) {
            // Once that agent made its edits (step-agent.mjs marks it) and works on.
            const marked = () => existsSync(`${stepsFile}.working`) && Number(readFileSync(`${stepsFile}.working`, 'utf8')) === opts.interruptAt;
            const poll = setInterval(() => {
              if (marked()) {
                clearInterval(poll);
                child.kill('SIGINT');
              }
            }, 25);
            void child.finally(() => clearInterval(poll)).catch(() => undefined);
          }
        }
        buffered = buffered.slice(buffered.lastIndexOf('\n') + 1);
      });
    }
    const r = await child;
    const stdout = String(r.stdout);
    const events = stdout.split('\n').filter((l) => l.trim().startsWith('{')).map((l) => JSON.parse(l));
    return { code: r.exitCode, events, stdout, stderr: String(r.stderr) };
  }

  /** What the last verify printed, for a failing assertion's message. */
  explain(): string {
    return this.results.map((r, i) => `#${i + 1} ${r.word} fp=${JSON.stringify(r.json?.fingerprint)} reasons=${JSON.stringify(r.json?.progress_reasons)} failing=${JSON.stringify(r.json?.failing_tests)}`).join('\n');
  }
}

function planText(files: string[], checks: string[]): string {
  return `---
phase: 01-units
plan: 01
type: execute
wave: 1
depends_on: []
files_modified: [${files.join(', ')}]
autonomous: true
---

<objective>
Make every unit return its value.
</objective>

<tasks>
<task type="auto">
  <name>Task 1: Make the units right</name>
  <files>${files.join(', ')}</files>
  <action>Make every unit return what its test expects.</action>
  <verify>${checks.map((c) => `\`${c}\``).join(' and ')}</verify>
</task>
</tasks>
`;
}

/** A lint script for a first check: fails while a TODO comment is left in the files it is given. */
export const LINT_TODO = "const fs = require('node:fs');\nfor (const f of process.argv.slice(2)) if (fs.readFileSync(f, 'utf8').includes('TODO')) { console.error(`lint: ${f}: a TODO comment is left in the code`); process.exit(1); }\n";

/** Permutations of a list (for "in every order"). */
export function permutations<T>(xs: T[]): T[][] {
  if (xs.length <= 1) return [xs];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((rest) => [x, ...rest]));
}

/** `want` for the first n names: each unit must return its position (1-based). */
export function wantFor(n: number): Record<string, number> {
  return Object.fromEntries(NAMES.slice(0, n).map((u, i) => [u, i + 1]));
}
