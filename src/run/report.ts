/**
 * Writes the `## RALF Lite Loop Report` into a plan's SUMMARY.md at the end of a run, with
 * the same pieces and semantics as `ralf report` (src/report/). Creating the file is the
 * caller's choice: `ralf run` creates it only for a plan that finished (a SUMMARY.md marks
 * a plan complete for GSD's execute-phase), and otherwise updates an existing one.
 */
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Plan } from '../plan/model.js';
import { composeAndWriteReport, composeLoopReport } from '../report/compose-report.js';
import { summaryPathFor } from '../report/summary-file.js';

export interface WrittenReport {
  path: string;
  action: 'created' | 'replaced' | 'appended' | 'unchanged' | 'not_written';
  section: string;
}

export function writeLoopReport(args: { plan: Plan; projectRoot: string; config: Record<string, unknown>; configSources: Record<string, string>; create: boolean }): WrittenReport {
  const path = summaryPathFor(args.plan.path);
  const report = composeAndWriteReport(() => composeLoopReport({ ...args, summaryPath: path, create: args.create && existsSync(dirname(path)) }));
  if (report.action === 'missing') return { path, action: 'not_written', section: report.section };
  return { path, action: report.action, section: report.section };
}
