import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { projectRelative, statePaths } from '../engine/shell/paths.js';
import { readPlanState, stateIdOfPlan } from '../engine/shell/store.js';
import type { PlanState } from '../engine/core/types.js';
import { RalfError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { ConcurrentChangeError, writeFileAtomic } from '../fs/atomic-write.js';
import { refuseLinkOutside } from '../fs/inside-project.js';
import type { Plan } from '../plan/model.js';
import { buildLoopReport, REPORT_HEADING } from './build-report.js';
import { displaySource } from './config-values.js';
import { fromPlan } from './from-plan.js';
import { stringifyMarkdown } from './markdown.js';
import { minimalSummary, readSummaryText } from './summary-file.js';
import type { ReportInput } from './types.js';
import { commandInvocation } from '../engine/shell/invocation.js';
import { upsertSection, type UpsertResult } from './upsert-section.js';

export interface ComposedReport {
  summaryPath: string;
  /** The plan's project (writes never go through a link out of it); null outside a project. */
  projectRoot: string | null;
  /** The SUMMARY.md text before; null when the file does not exist. */
  original: string | null;
  section: string;
  input: ReportInput;
  state: PlanState | null;
  stateFile: string | null;
  /** The new text; null when there is no SUMMARY.md and none is to be created. */
  result: UpsertResult | null;
  action: 'created' | 'replaced' | 'appended' | 'unchanged' | 'missing';
}

/**
 * Builds the Loop Report for a plan and splices it into its SUMMARY.md text, without
 * writing: shared by `ralf report` and `ralf run`. The report describes the config the
 * loop ran with (recorded in its state); before any state exists, the config it would use.
 */
export function composeLoopReport(args: {
  plan: Plan;
  projectRoot: string | null;
  config: Record<string, unknown>;
  configSources: Record<string, string>;
  summaryPath: string;
  create: boolean;
}): ComposedReport {
  const { plan, projectRoot } = args;
  const shown = (p: string) => (projectRoot ? projectRelative(projectRoot, p) : p);
  // State is keyed by the plan's path (an archived plan with the same file name has its own).
  const stateId = projectRoot ? stateIdOfPlan(projectRoot, plan.path) : null;
  const stateFile = projectRoot && stateId ? statePaths(projectRoot, stateId).state : null;
  const state = projectRoot && stateId ? readPlanState(projectRoot, stateId) : null;
  const recorded = state !== null && Object.keys(state.config).length > 0;
  const values = recorded ? state.config : args.config;
  const rawSources = recorded ? state.config_sources : args.configSources;
  const where = { projectRoot, home: homedir() };
  const sources = Object.fromEntries(Object.entries(rawSources).map(([k, v]) => [k, displaySource(v, where)]));
  const input: ReportInput = {
    state,
    plan: fromPlan(plan, shown(plan.path)),
    config: { values, sources },
    state_path: stateFile ? shown(stateFile) : undefined,
    invocation: commandInvocation('terminal'),
  };
  const section = stringifyMarkdown(buildLoopReport(input));
  const original = readSummaryText(args.summaryPath);
  if (original === null && !args.create) return { summaryPath: args.summaryPath, projectRoot, original, section, input, state, stateFile, result: null, action: 'missing' };
  const result = upsertSection(original ?? minimalSummary(plan.id, null), section, args.summaryPath, REPORT_HEADING);
  return { summaryPath: args.summaryPath, projectRoot, original, section, input, state, stateFile, result, action: original === null ? 'created' : result.action };
}

/**
 * Writes a composed report atomically; through a symlinked SUMMARY.md to its target. Only
 * if the file still holds what the report was composed from (compare-and-swap): throws
 * ConcurrentChangeError otherwise, nothing written.
 */
export function writeComposedReport(report: ComposedReport): void {
  if (!report.result || report.action === 'unchanged' || report.action === 'missing') return;
  if (report.projectRoot) refuseLinkOutside(report.projectRoot, report.summaryPath, 'the Loop Report');
  writeFileAtomic(report.original === null ? report.summaryPath : realpathSync(report.summaryPath), report.result.text, { unchangedFrom: report.original });
}

const WRITE_ATTEMPTS = 3;

/**
 * Composes and writes, composing again from the new content when someone else (an editor,
 * the agent) wrote the SUMMARY.md meanwhile; after 3 such races: exit 75 (busy), nothing
 * written, the other writer's content kept.
 */
export function composeAndWriteReport(compose: () => ComposedReport, options: { dryRun?: boolean } = {}): ComposedReport {
  for (let attempt = 1; ; attempt++) {
    const report = compose();
    if (options.dryRun) return report;
    try {
      writeComposedReport(report);
      return report;
    } catch (err) {
      if (!(err instanceof ConcurrentChangeError)) throw err;
      if (attempt >= WRITE_ATTEMPTS) {
        throw new RalfError('busy', `${report.summaryPath} kept changing while the report was written (${WRITE_ATTEMPTS} tries); it was not changed`, {
          exitCode: ExitCode.busy,
          problems: [{ file: report.summaryPath, message: 'written by another program during each attempt', hint: 'run `ralf report` again once the other writer (an editor, an agent) is done' }],
        });
      }
    }
  }
}
