// zod/mini: the same zod, built from functions instead of methods. Its schemas construct
// ~10 ms faster than classic zod's, and config is on the path of every ralf call.
import {
  _default,
  array,
  boolean,
  describe,
  enum as oneOf,
  int,
  maximum,
  minimum,
  minLength,
  maxLength,
  number,
  optional,
  strictObject,
  string,
  type infer as Infer,
} from 'zod/mini';
import { DEFAULT_MAX_UNTRACKED_FILE_MB } from '../git/snapshot.js';

/**
 * The `ralf_lite` configuration: the single source of truth for keys, types, ranges,
 * defaults and documentation. The JSON Schema in schemas/ and the README's
 * configuration reference are generated from it (tests keep them in sync).
 *
 * The seed's defaults are exactly:
 * {"enabled": true, "max_iterations": 3, "error_fingerprint_repeats": 2,
 *  "no_progress_repeats": 2, "apply_to": {"auto_tasks": true, "autonomous_plans": true, "tdd_tasks": false}}
 * Every other key is optional and changes nothing unless set (no time-based stop by default).
 */
const intIn = (min: number, max: number, description: string) => int().check(minimum(min), maximum(max), describe(description));

export const ApplyTo = strictObject({
  auto_tasks: _default(boolean().check(describe('Wrap `type="auto"` tasks in the loop.')), true),
  autonomous_plans: _default(boolean().check(describe('Run the plan-level loop (`ralf plan verify`) for `autonomous: true` plans.')), true),
  tdd_tasks: _default(boolean().check(describe('Also wrap TDD tasks (`tdd="true"` or `type="tdd"`).')), false),
}).check(describe('Which kinds of work the loop may wrap.'));

export const Checks = strictObject({
  tests: optional(string().check(minLength(1), describe('Command for `tests_pass` criteria, e.g. `npm test`. Falls back to GSD `workflow.test_command`.'))),
  typecheck: optional(string().check(minLength(1), describe('Command for `no_type_errors` criteria, e.g. `npx tsc --noEmit`.'))),
  lint: optional(string().check(minLength(1), describe('Command for `lint_clean` criteria, e.g. `npm run lint`.'))),
}).check(describe('Project commands that named acceptance criteria (tests pass, no type errors, lint clean) run.'));

export const Run = strictObject({
  iteration_timeout_seconds: optional(intIn(1, 86_400, '`ralf run`: kill an agent iteration after this many seconds (default 900).')),
  commit: optional(boolean().check(describe('`ralf run`: commit each task that passes (default true).'))),
  commit_timeout_seconds: optional(intIn(1, 86_400, "`ralf run`: kill a task's commit (its hooks) after this many seconds (default 300).")),
  backoff_seconds: optional(
    array(number().check(minimum(0), maximum(3600))).check(
      minLength(1),
      maxLength(20),
      describe('`ralf run`: waits before retrying a rate-limited or transient agent failure (default [1, 2, 4, 8, 16], with jitter).'),
    ),
  ),
}).check(describe('Options for the headless driver `ralf run`.'));

export const Snapshot = strictObject({
  max_untracked_file_mb: optional(
    intIn(
      1,
      1_048_576,
      'Untracked files larger than this many MB are left out of the working-tree snapshot (the loop does not see their changes) and listed in the verify answer (default 50). git would otherwise read, hash and store every version of them on every verify.',
    ),
  ),
}).check(describe('How the loop snapshots the working tree on each verify.'));

export const Hooks = strictObject({
  enabled: optional(
    boolean().check(describe('Let the Claude Code Stop hook and the OpenCode plugin keep an agent going while a loop it started is open (default true).')),
  ),
  max_blocks: optional(intIn(1, 100, 'Most times the Stop hook / OpenCode plugin holds a session for one task loop (default 3).')),
}).check(describe('The host holding the agent to the loop (`ralf hook stop`).'));

export const RalfLiteConfig = strictObject({
  enabled: _default(boolean().check(describe('Turn the loop on or off. When off, tasks execute once without the loop.')), true),
  max_iterations: _default(intIn(1, 100, 'Most verification iterations per task (and per plan) before the loop stops with `max_iterations`.'), 3),
  error_fingerprint_repeats: _default(
    intIn(1, 100, 'Stop with `repeated_fingerprint` when the same normalized error fingerprint occurs in this many iterations in a row (N occurrences, not N repeats), none of the repeats fixing a check or test or moving the error downstream. A return to an earlier iteration\'s exact result with no improvement since continues that occurrence\'s count (a detour such as a syntax error between two tries neither resets nor adds to it).'),
    2,
  ),
  no_progress_repeats: _default(intIn(1, 100, 'Stop with `no_progress` after this many no-progress iterations in a row: no tree not seen before in the loop, or checks reporting what an earlier iteration (before the previous one) reported (returning to an earlier tree or result never counts). Iteration 1 always counts as progress.'), 2),
  apply_to: _default(ApplyTo, { auto_tasks: true, autonomous_plans: true, tdd_tasks: false }),
  check_timeout_seconds: optional(intIn(1, 86_400, 'Kill a verification check (and its process tree) after this many seconds (default 600).')),
  time_budget_seconds: optional(intIn(1, 604_800, 'Optional time budget for one task loop; unset means no time-based stop (the default).')),
  stop_on_first_failure: optional(boolean().check(describe("Stop running a task's checks at the first failure (default false: run all, so progress can be measured)."))),
  preexisting_failures: optional(
    oneOf(['report', 'allow', 'off']).check(
      describe(
        'Checks that already fail before the agent\'s first edit: `ralf task start` runs the task\'s checks and records them. `report` (default): the handoff and Loop Report list them apart as "already failing before the task"; they still block. `allow`: a check that fails only as it did before (same failing tests, or the same fingerprint) does not block the task. `off`: `task start` runs no checks and nothing is recorded.',
      ),
    ),
  ),
  checks: optional(Checks),
  run: optional(Run),
  snapshot: optional(Snapshot),
  hooks: optional(Hooks),
}).check(describe('RALF Lite loop configuration (key `ralf_lite`).'));

export type RalfLiteConfig = Infer<typeof RalfLiteConfig>;

/** Defaults the loop engine uses for optional keys that are unset. */
export const RUNTIME_DEFAULTS = {
  check_timeout_seconds: 600,
  iteration_timeout_seconds: 900,
  backoff_seconds: [1, 2, 4, 8, 16],
  commit: true,
  commit_timeout_seconds: 300,
  max_untracked_file_mb: DEFAULT_MAX_UNTRACKED_FILE_MB,
} as const;

/** The built-in defaults layer (the seed's block). */
export const DEFAULT_CONFIG: RalfLiteConfig = RalfLiteConfig.parse({});
