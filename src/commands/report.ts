import { parseCommandArgs } from '../cli/args.js';
import { printJson, printText, style } from '../cli/output.js';
import { RalfError, location, usageError, type Problem } from '../errors.js';
import { ExitCode } from '../exit-codes.js';

const USAGE = 'ralf report <PLAN.md> [--summary PATH] [--create] [--dry-run] [--cwd DIR] [--json]';

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    { summary: { type: 'string' }, create: { type: 'boolean' }, 'dry-run': { type: 'boolean' } },
    USAGE,
  );
  if (positionals.length !== 1) throw usageError(positionals.length === 0 ? 'missing <PLAN.md>' : `unexpected argument "${positionals[1]}"`, `usage: ${USAGE}`);

  // Everything heavy (remark, zod, cosmiconfig) loads only past argument parsing.
  const [{ existsSync, realpathSync }, { dirname, resolve }, { homedir }] = await Promise.all([import('node:fs'), import('node:path'), import('node:os')]);
  const { planIdFromPath, projectRelative, projectRootForPlan, statePaths } = await import('../engine/paths.js');
  const { readPlanState } = await import('../engine/store.js');
  const { loadConfig } = await import('../config/load.js');
  const { projectCommands, readPlan } = await import('../plan/index.js');
  const { displaySource } = await import('../report/config-values.js');
  const { fromPlan } = await import('../report/from-plan.js');
  const { minimalSummary, readSummaryText, summaryPathFor } = await import('../report/summary-file.js');

  const cwd = resolve(values.cwd ?? process.cwd());
  const planPath = resolve(cwd, positionals[0]!);
  const effective = loadConfig({ cwd: dirname(planPath) });
  const parsed = readPlan(planPath, { config: effective.config, projectCommands: projectCommands(effective.config, effective.project_config) });
  const planId = planIdFromPath(planPath);
  const projectRoot = projectRootForPlan(planPath);
  const shown = (p: string) => (projectRoot ? projectRelative(projectRoot, p) : p);
  const stateFile = projectRoot ? statePaths(projectRoot, planId).state : null;
  const state = projectRoot ? readPlanState(projectRoot, planId) : null;

  // The config the loop ran with (recorded in the state) is what the report describes;
  // before any state exists, the config it would run with.
  const recorded = state && Object.keys(state.config).length > 0;
  const configValues = recorded ? state.config : (effective.config as unknown as Record<string, unknown>);
  const rawSources = recorded ? state.config_sources : effective.sources;
  const where = { projectRoot, home: homedir() };
  const sources = Object.fromEntries(Object.entries(rawSources).map(([k, v]) => [k, displaySource(v, where)]));

  const input = {
    state,
    plan: fromPlan(parsed, shown(planPath)),
    config: { values: configValues, sources },
    state_path: stateFile ? shown(stateFile) : undefined,
  };

  const { buildLoopReport, REPORT_HEADING } = await import('../report/build-report.js');
  const { reportRows } = await import('../report/rows.js');
  const { stringifyMarkdown } = await import('../report/markdown.js');
  const { upsertSection } = await import('../report/upsert-section.js');
  const section = stringifyMarkdown(buildLoopReport(input));

  const summaryPath = values.summary ? resolve(cwd, values.summary) : summaryPathFor(planPath);
  const original = readSummaryText(summaryPath);
  if (original === null && !values.create) {
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
  if (original === null && !existsSync(dirname(summaryPath))) {
    throw new RalfError('summary_missing', `cannot create ${summaryPath}: its directory does not exist`, { problems: [{ file: dirname(summaryPath), message: 'no such directory' }] });
  }
  const result = upsertSection(original ?? minimalSummary(planId, null), section, summaryPath, REPORT_HEADING);
  const action = original === null ? 'created' : result.action;
  const dryRun = values['dry-run'] === true;
  if (!dryRun && action !== 'unchanged') {
    const { writeFileAtomic } = await import('../fs/atomic-write.js');
    // Write through a symlinked SUMMARY.md to its target; renaming over the link would replace it.
    writeFileAtomic(original === null ? summaryPath : realpathSync(summaryPath), result.text);
  }

  const tasks = reportRows(input);
  printWarnings(result.warnings);
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
  const s = style(process.stderr);
  for (const w of warnings) {
    const where = location(w);
    process.stderr.write(`${s.yellow('warning')}: ${where ? `${where}: ` : ''}${w.message}\n${w.hint ? `  hint: ${w.hint}\n` : ''}`);
  }
}
