import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseCommandArgs } from '../cli/args.js';
import { printJson, printText, style, writeStderr } from '../cli/output.js';
import { RalfError, location, usageError, type Problem } from '../errors.js';
import { ExitCode } from '../exit-codes.js';

export const USAGE = 'ralf report <PLAN.md> [--summary PATH] [--create] [--dry-run] [--cwd DIR] [--json]';

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    { summary: { type: 'string' }, create: { type: 'boolean' }, 'dry-run': { type: 'boolean' } },
    USAGE,
  );
  if (positionals.length !== 1) throw usageError(positionals.length === 0 ? 'missing <PLAN.md>' : `unexpected argument "${positionals[1]}"`, `usage: ${USAGE}`);

  // Everything heavy (remark, zod, cosmiconfig) loads only past argument parsing.
  const { projectRootForPlan } = await import('../engine/shell/paths.js');
  const { loadConfig } = await import('../config/load.js');
  const { projectCommands, readPlan } = await import('../plan/index.js');
  const { summaryPathFor } = await import('../report/summary-file.js');
  const { composeLoopReport, composeAndWriteReport } = await import('../report/compose-report.js');
  const { REPORT_HEADING } = await import('../report/build-report.js');
  const { reportRows } = await import('../report/rows.js');

  const cwd = resolve(values.cwd ?? process.cwd());
  const planPath = resolve(cwd, positionals[0]!);
  const effective = loadConfig({ cwd: dirname(planPath) });
  const parsed = readPlan(planPath, { config: effective.config, projectCommands: projectCommands(effective.config, effective.project_config) });
  const planId = parsed.id;
  const summaryPath = values.summary ? resolve(cwd, values.summary) : summaryPathFor(planPath);
  if (values.create && !existsSync(summaryPath) && !existsSync(dirname(summaryPath))) {
    throw new RalfError('summary_missing', `cannot create ${summaryPath}: its directory does not exist`, { problems: [{ file: dirname(summaryPath), message: 'no such directory' }] });
  }
  const dryRun = values['dry-run'] === true;
  const report = composeAndWriteReport(
    () =>
      composeLoopReport({
        plan: parsed,
        projectRoot: projectRootForPlan(planPath),
        config: effective.config as unknown as Record<string, unknown>,
        configSources: effective.sources,
        summaryPath,
        create: values.create === true,
      }),
    { dryRun },
  );
  const { section, input, state, stateFile, result } = report;
  if (report.action === 'missing' || !result) {
    throw new RalfError('summary_missing', `no SUMMARY.md for ${planId}: ${summaryPath} does not exist`, {
      problems: [
        {
          file: summaryPath,
          message: 'expected the plan summary here',
          hint: 'GSD writes it when the plan completes; pass --summary PATH for another file, or --create to create a minimal one',
        },
      ],
    });
  }
  const action = report.action;

  const tasks = reportRows(input);
  // With --json the warnings are in the document (stderr stays quiet for agents).
  if (!values.json) printWarnings(result.warnings);
  if (values.json) {
    printJson({
      summary: summaryPath,
      action,
      dry_run: dryRun,
      placement: result.placement,
      line: result.line,
      before: result.before,
      state: stateFile,
      state_found: state !== null,
      section,
      tasks,
      warnings: result.warnings,
    });
    return ExitCode.ok;
  }

  const s = style();
  const verb = {
    replaced: ['Replaced', 'Would replace'],
    appended: ['Appended', 'Would append'],
    created: ['Created', 'Would create'],
    unchanged: ['Unchanged:', 'Unchanged:'],
  }[action][dryRun ? 1 : 0];
  const placed = result.placement === 'before-self-check' ? ` before "${result.before}"` : result.placement === 'before-footer' ? ' before the closing "---" footer' : '';
  const head =
    action === 'unchanged'
      ? `${verb} the ${REPORT_HEADING} in ${summaryPath} (line ${result.line}) is up to date`
      : `${verb} the ${REPORT_HEADING} ${action === 'created' ? 'in new file' : 'in'} ${summaryPath}${placed} (line ${result.line})`;
  const lines = [s.bold(head)];
  if (!state) lines.push(s.dim(`no loop state yet${stateFile ? ` (${stateFile} not found)` : ' (no .planning/ directory above the plan)'}`));
  if (dryRun) lines.push(s.dim('dry run: nothing written. The section:'), '', section);
  printText(lines.join('\n'));
  return ExitCode.ok;
}

function printWarnings(warnings: Problem[]): void {
  const s = style(2);
  for (const w of warnings) {
    const where = location(w);
    writeStderr(`${s.yellow('warning')}: ${where ? `${where}: ` : ''}${w.message}\n${w.hint ? `  hint: ${w.hint}\n` : ''}`);
  }
}
