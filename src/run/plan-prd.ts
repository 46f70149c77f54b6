/**
 * copilot_ralf's planning step as one agent run: a rough request → a PRD checklist the loop
 * can verify. The agent writes the file itself; when it only prints the PRD, the text from its
 * `# PRD:` heading on is saved. The result is read back with the PRD reader, so what the
 * person reviews is exactly what `ralf run` will loop over (and the checks it will run).
 */
import { RalfError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { parsePrdChecklist } from '../formats/prd-checklist.js';
import type { AgentAdapter } from './agents/types.js';
import { runAgentAttempts } from './agent-attempts.js';
import { sleep } from './backoff.js';
import { RUNTIME_DEFAULTS } from '../config/schema.js';
import { readUserTextIfExists } from '../fs/read-user-text.js';

export interface PlanPrdOptions {
  request: string;
  /** Absolute path of the PRD to write. */
  out: string;
  projectDir: string;
  agent: AgentAdapter;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

export interface PlanPrdResult {
  tasks: number;
  /** Tasks with at least one check ralf can run. */
  withChecks: number;
  warnings: string[];
}

/** The planning prompt (pure): copilot_ralf's PRD shape, with Acceptance lines ralf can run. */
export function planningPrompt(request: string, outRel: string): string {
  return [
    'You are planning work for an autonomous coding loop. Read the project (if it has files), then write a PRD: an ordered checklist of small tasks.',
    '',
    `Write it to the file ${outRel} (create the directory if needed). Change nothing else.`,
    '',
    'Rules:',
    '- Each task is atomic: one focused session of at most ~15 minutes. Later tasks may depend on earlier ones, never the reverse.',
    '- Task 1 sets the project up (a .gitignore suited to the language, package init, basic config) unless that exists.',
    '- Each task names the files it creates or changes.',
    '- Each task has at least one MACHINE-VERIFIABLE acceptance line with an exact command in backticks, e.g. `- Acceptance: \\`bash sysinfo.sh --json\\` exits with code 0` or `- Acceptance: `npm test` passes`. Never "works correctly" or "looks good".',
    '- Label each task with its effort: [effort: low], [effort: medium] or [effort: high].',
    '',
    'Use exactly this Markdown shape:',
    '',
    '# PRD: <Short Project Title>',
    '',
    '> <One-line description>',
    '',
    '## Context',
    '',
    '<2-3 sentences: the goal, the stack, the constraints>',
    '',
    '## Tasks',
    '',
    '- [ ] **Task 1: <Title>** [effort: low]',
    '  - Description: <what to do>',
    '  - Files: <files to create or change>',
    '  - Acceptance: `<command>` exits with code 0',
    '',
    '## Notes',
    '',
    '<decisions, constraints, warnings>',
    '',
    '## The request',
    '',
    request.trim(),
  ].join('\n');
}

export async function planPrd(o: PlanPrdOptions): Promise<PlanPrdResult> {
  const before = readUserTextIfExists(o.out, { what: 'PRD checklist' });
  const outRel = o.out.startsWith(`${o.projectDir}/`) ? o.out.slice(o.projectDir.length + 1) : o.out;
  const controller = new AbortController();
  const attempt = await runAgentAttempts({
    agent: o.agent,
    root: o.projectDir,
    planId: 'plan-prd',
    task: null,
    iteration: 1,
    prompt: planningPrompt(o.request, outRel),
    timeoutMs: o.timeoutMs,
    backoffSeconds: RUNTIME_DEFAULTS.backoff_seconds,
    signal: o.signal ?? controller.signal,
    env: o.env,
    logFile: () => null,
    emit: () => undefined,
    random: Math.random,
    sleep,
  });
  if (attempt.kind === 'aborted') throw new RalfError('interrupted', 'interrupted while the planning agent ran; nothing was written', { exitCode: ExitCode.interrupted });
  if (attempt.kind === 'agent_failed') throw new RalfError('agent_failed', `the planning agent failed: ${attempt.detail}`, { exitCode: ['not_found', 'not_executable', 'spawn_failed', 'auth'].includes(attempt.reason) ? ExitCode.badInput : ExitCode.stop });
  if (attempt.process.timedOut) throw new RalfError('agent_failed', `the planning agent timed out after ${Math.round(o.timeoutMs / 1000)} s`, { exitCode: ExitCode.stop });

  let text = readUserTextIfExists(o.out, { what: 'PRD checklist' });
  if (text === null || text === before) {
    // The agent printed the PRD instead of writing it: keep what follows its `# PRD:` heading.
    const printed = attempt.stream.text;
    const at = printed.search(/^# PRD:/m);
    if (at < 0) throw new RalfError('prd_not_written', `the planning agent neither wrote ${outRel} nor printed a PRD (a "# PRD:" heading)`, { exitCode: ExitCode.stop, problems: [{ file: o.out, message: 'no PRD written', hint: 'run it again, or write the checklist by hand (FORMATS.md, "copilot_ralf")' }] });
    text = `${printed.slice(at).replace(/\s*$/, '')}\n`;
    writeFileAtomic(o.out, text);
  }
  const plan = parsePrdChecklist(text, o.out);
  const open = plan.tasks.filter((t) => t.not_runnable === undefined);
  const warnings = [...plan.warnings];
  const unchecked = open.filter((t) => t.decision !== 'loop' && t.decision !== 'refuse');
  if (unchecked.length > 0) warnings.push(`${unchecked.length} task${unchecked.length === 1 ? ' has' : 's have'} no Acceptance line ralf can run (${unchecked.map((t) => `Task ${t.number}`).join(', ')}): add an exact command, or they run once unverified`);
  if (open.length === 0) throw new RalfError('prd_empty', `${outRel} has no open checklist items (- [ ] ...)`, { exitCode: ExitCode.stop, problems: [{ file: o.out, message: 'no open tasks', hint: 'plan again with a clearer request, or write the tasks by hand' }] });
  return { tasks: open.length, withChecks: open.filter((t) => t.checks.length > 0).length, warnings };
}
