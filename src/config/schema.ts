import { array, boolean, int, number, strictObject, string, type infer as Infer } from 'zod';

// Named imports (not `z`) let the bundler drop the rest of zod: start-up parses less.

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
export const ApplyTo = strictObject({
    auto_tasks: boolean().default(true).describe('Wrap `type="auto"` tasks in the loop.'),
    autonomous_plans: boolean().default(true).describe('Run the plan-level loop (`ralf plan verify`) for `autonomous: true` plans.'),
    tdd_tasks: boolean().default(false).describe('Also wrap TDD tasks (`tdd="true"` or `type="tdd"`).'),
  })
  .describe('Which kinds of work the loop may wrap.');

export const Checks = strictObject({
    tests: string().min(1).optional().describe('Command for `tests_pass` criteria, e.g. `npm test`. Falls back to GSD `workflow.test_command`.'),
    typecheck: string().min(1).optional().describe('Command for `no_type_errors` criteria, e.g. `npx tsc --noEmit`.'),
    lint: string().min(1).optional().describe('Command for `lint_clean` criteria, e.g. `npm run lint`.'),
  })
  .describe('Project commands that named acceptance criteria (tests pass, no type errors, lint clean) run.');

export const Run = strictObject({
    iteration_timeout_seconds: int().min(1).max(86_400).optional().describe('`ralf run`: kill an agent iteration after this many seconds (default 900).'),
    commit: boolean().optional().describe('`ralf run`: commit each task that passes (default true).'),
    backoff_seconds: array(number().min(0).max(3600))
      .min(1)
      .max(20)
      .optional()
      .describe('`ralf run`: waits before retrying a rate-limited or transient agent failure (default [1, 2, 4, 8, 16], with jitter).'),
  })
  .describe('Options for the headless driver `ralf run`.');

export const RalfLiteConfig = strictObject({
    enabled: boolean().default(true).describe('Turn the loop on or off. When off, tasks execute once without the loop.'),
    max_iterations: int().min(1).max(100).default(3).describe('Most verification iterations per task (and per plan) before the loop stops with `max_iterations`.'),
    error_fingerprint_repeats: int()
      .min(1)
      .max(100)
      .default(2)
      .describe('Stop with `repeated_fingerprint` when the same normalized error fingerprint occurs this many iterations in a row.'),
    no_progress_repeats: int().min(1).max(100).default(2).describe('Stop with `no_progress` after this many no-progress iterations in a row.'),
    apply_to: ApplyTo.default({ auto_tasks: true, autonomous_plans: true, tdd_tasks: false }),
    check_timeout_seconds: int().min(1).max(86_400).optional().describe('Kill a verification check (and its process tree) after this many seconds (default 600).'),
    time_budget_seconds: int().min(1).max(604_800).optional().describe('Optional time budget for one task loop; unset means no time-based stop (the default).'),
    stop_on_first_failure: boolean().optional().describe('Stop running a task\'s checks at the first failure (default false: run all, so progress can be measured).'),
    checks: Checks.optional(),
    run: Run.optional(),
  })
  .describe('RALF Lite loop configuration (key `ralf_lite`).');

export type RalfLiteConfig = Infer<typeof RalfLiteConfig>;

/** Defaults the loop engine uses for optional keys that are unset. */
export const RUNTIME_DEFAULTS = {
  check_timeout_seconds: 600,
  iteration_timeout_seconds: 900,
  backoff_seconds: [1, 2, 4, 8, 16],
  commit: true,
} as const;

/** The built-in defaults layer (the seed's block). */
export const DEFAULT_CONFIG: RalfLiteConfig = RalfLiteConfig.parse({});
