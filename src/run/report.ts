/**
 * Writes the `## RALF Lite Loop Report` into a plan's SUMMARY.md at the end of a run, with
 * the same pieces and semantics as `ralf report` (src/report/). Creating the file is the
 * caller's choice: `ralf run` creates it only for a plan that finished (a SUMMARY.md marks
 * a plan complete for GSD's execute-phase), and otherwise updates an existing one.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, relative, sep } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { Plan } from '../plan/model.js';
import { buildLoopReport, REPORT_HEADING } from '../report/build-report.js';
import { displaySource } from '../report/config-values.js';
import { readPlanState } from '../engine/store.js';
import { statePaths } from '../engine/paths.js';
import { stringifyMarkdown } from '../report/markdown.js';
import { fromPlan } from '../report/from-plan.js';
import { minimalSummary, readSummaryText, summaryPathFor } from '../report/summary-file.js';
import { upsertSection } from '../report/upsert-section.js';

export interface WrittenReport {
  path: string;
  action: 'created' | 'replaced' | 'appended' | 'unchanged' | 'not_written';
  section: string;
}

export function writeLoopReport(args: { plan: Plan; projectRoot: string; config: Record<string, unknown>; configSources: Record<string, string>; create: boolean }): WrittenReport {
  const { plan, projectRoot } = args;
  const shown = (p: string) => (!relative(projectRoot, p).startsWith('..') ? relative(projectRoot, p).split(sep).join('/') : p);
  const state = readPlanState(projectRoot, plan.id);
  const values = state && Object.keys(state.config).length > 0 ? state.config : args.config;
  const rawSources: Record<string, string> = state && Object.keys(state.config).length > 0 ? state.config_sources : args.configSources;
  const where = { projectRoot, home: homedir() };
  const sources = Object.fromEntries(Object.entries(rawSources).map(([k, v]) => [k, displaySource(v, where)]));
  const section = stringifyMarkdown(
    buildLoopReport({ state, plan: fromPlan(plan, shown(plan.path)), config: { values, sources }, state_path: shown(statePaths(projectRoot, plan.id).state) }),
  );
  const path = summaryPathFor(plan.path);
  const original = readSummaryText(path);
  if (original === null && (!args.create || !existsSync(dirname(path)))) return { path, action: 'not_written', section };
  const result = upsertSection(original ?? minimalSummary(plan.id, null), section, path, REPORT_HEADING);
  const action = original === null ? 'created' : result.action;
  if (action !== 'unchanged') writeFileAtomic(path, result.text);
  return { path, action, section };
}
