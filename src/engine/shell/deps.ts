/**
 * The I/O shell's collaborators behind one small interface: config, plan, checks,
 * fingerprints and git. The default implementation imports them lazily, so a command
 * that only reads state (`ralf status`) never loads them; tests can pass fakes.
 */
import { fingerprintModule, preloadFingerprintModule } from '../../bundle/fingerprint.js';
import { loadPlanningModule } from '../../bundle/planning.js';
import type { RalfLiteConfig } from '../../config/schema.js';
import type { SnapshotOptions, WorkingTreeSnapshot } from '../../git/snapshot.js';
import type { Check, Plan } from '../../plan/model.js';
import type { CheckResult } from '../core/types.js';

export interface EffectiveConfigLike {
  config: RalfLiteConfig;
  sources: Record<string, string>;
  project_root: string | null;
  /** The whole `.planning/config.json` (GSD's `workflow.test_command` is a fallback for tests). */
  project_config?: Record<string, unknown> | null;
  /** The config files consulted (present or not): the plan cache watches them. */
  files?: Array<{ path: string; exists: boolean }>;
}

export type RawCheck = Omit<CheckResult, 'fingerprint' | 'failing_tests'> & { interrupted?: boolean; output_bytes?: number };

export interface RunChecksLike {
  cwd: string;
  timeoutMs: number;
  stopOnFirstFailure: boolean;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  onCheckStart?: (index: number, check: Check, total: number) => void;
  /** Called with each shell check's process group id when it starts. */
  onSpawn?: (pgid: number) => void;
  /** Every output chunk of check `index` as it arrives. */
  onOutput?: (index: number, chunk: Buffer) => void;
}

/** A streamed scan of one check's whole output (src/fingerprint/scan.ts), fingerprinted at the end. */
export interface OutputScanLike {
  push(chunk: Buffer): void;
  result(options: { exitCode: number | null }): { fingerprint: string | null; failing_units: string[] };
}

/** Changes not attributed to this loop's agent (src/git/task-diff.ts `DiffIgnore`). */
export interface DiffIgnoreLike {
  checkWritten?: Record<string, string>;
  otherLoops?: string[];
}

export interface GitDeps {
  /** Cheap test (no process) whether `root` is inside a git working tree. */
  insideGit(root: string): boolean;
  /** Tree of HEAD (the last commit), null outside git or before the first commit. */
  headTree(root: string): Promise<string | null>;
  /** Tree of the working tree incl. untracked files (excluding .planning/ralf); null outside git. */
  snapshot(root: string, options?: SnapshotOptions): Promise<string | null>;
  /**
   * The same snapshot with what it left out (untracked files above the size cap) and how many
   * untracked files it holds (src/git/snapshot.ts). Optional: without it, `snapshot` is used.
   */
  takeSnapshot?(root: string, options: SnapshotOptions): Promise<WorkingTreeSnapshot | null>;
  /**
   * The diff since the task started: a hash of the task files' diff (null: none), every
   * changed file, and the Rule 4 findings (src/git/task-diff.ts).
   */
  taskDiff(args: { root: string; fromTree: string; toTree: string; taskFiles: string[]; declaredFiles: string[]; ignore?: DiffIgnoreLike | undefined }): Promise<{ diffHash: string | null; filesChanged: string[]; findings: string[] }>;
  /** Path → new blob id (`''`: deleted) of every change between two trees (what the checks wrote). */
  written(root: string, fromTree: string, toTree: string): Promise<Record<string, string>>;
  /** The bytes of `file` (absolute) in tree-ish `ref`; null when `ref` does not have it. Optional (fakes). */
  fileAt?(root: string, ref: string, file: string): Promise<Buffer | null>;
}

/** Config loading and plan parsing: the heavy part (zod, YAML), skipped on a plan-cache hit. */
export interface PlanningDeps {
  loadConfig(options: { cwd: string; host?: string | undefined; configDir?: string | undefined; env?: NodeJS.ProcessEnv | undefined }): EffectiveConfigLike;
  readPlan(path: string, effective: EffectiveConfigLike): Plan;
  /** A plan from its text (another version of the file at `path`, e.g. from git), decided like readPlan. */
  planFromText(text: string, path: string, effective: EffectiveConfigLike): Plan;
  checkTimeoutSeconds: number;
}

export interface EngineDeps {
  planning(): Promise<PlanningDeps>;
  /** Use the plan cache (.planning/ralf/.cache-<id>.json); default true. */
  planCache?: boolean;
  runChecks(checks: Check[], options: RunChecksLike): Promise<RawCheck[]>;
  /** The failure's normalized fingerprint and the SET of failing units it names (tests, else diagnostics). */
  fingerprint(output: string, options: { exitCode: number | null }): { fingerprint: string | null; failing_units: string[] };
  /** Optional: scan each check's whole output as it streams (else its kept head/tail is fingerprinted). */
  scanOutput?(): OutputScanLike;
  /** Optional: one output line with its values normalised (paths, line numbers, times), for counting failures (core/unit-lines.ts). */
  normalizeLine?(line: string): string;
  git: GitDeps;
}

let light: Promise<EngineDeps> | null = null;
let heavy: Promise<PlanningDeps> | null = null;

function planning(): Promise<PlanningDeps> {
  heavy ??= loadPlanningModule().then((m) => m.createPlanningDeps());
  return heavy;
}

/** The real collaborators, loaded once and lazily (config/plan only when needed). */
export function defaultDeps(): Promise<EngineDeps> {
  light ??= (async () => {
    const [verify, git] = await Promise.all([import('../../verify/run-checks.js'), import('./git-adapter.js'), preloadFingerprintModule()]);
    return {
      planning,
      runChecks: (checks, o) => verify.runChecks(checks, o),
      // Loaded on first use (a check printed something or failed): bundle/fingerprint.ts.
      fingerprint: (output, o) => fingerprintModule().fingerprint(output, o),
      scanOutput: () => fingerprintModule().scanForFingerprint(),
      normalizeLine: (line) => fingerprintModule().normalizeValues(line),
      git: git.gitDeps,
    } satisfies EngineDeps;
  })();
  return light;
}
