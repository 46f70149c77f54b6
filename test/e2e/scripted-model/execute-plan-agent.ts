/**
 * A scripted agent that follows workflows/execute-plan.md the way a model would, using
 * only what reached it: the runtime command line and plan path from the expanded
 * /execute-plan body, the injected `ralf plan --json` analysis, and the tool results.
 * What it types into files for each task is the test's script (`attempts`); everything
 * else (start, verify, react to exit 0/10/20, checkpoint stop, SUMMARY, report) is the
 * workflow's procedure.
 */
import { exitOf, type AgentScript, type Reply } from './agent.js';

export interface ExecutePlanScript {
  /** Shell commands that implement task N: attempt 1, then one per repair; the last repeats. */
  attempts: Record<number, string[]>;
  /**
   * Tries to end its turn after every retry (exit 10) of these tasks, as a model that thinks it
   * is done would. When the host sends it back with ralf's reason, it repairs and runs the
   * exact `task verify` command the reason names; when the host lets it stop, the turn ends.
   */
  endTurnOnRetry?: number[];
}

/** The text both hosts hand back when ralf holds the agent (the Stop hook's / plugin's reason). */
export const HOLD_REASON = /ralf-lite: (?:the loop of|the checks of) /;

interface PlanTaskJson {
  number: number;
  name: string;
  type: string | null;
  decision: 'loop' | 'skip' | 'refuse';
  reason: string;
  files: string[];
  elements?: Record<string, string>;
}

interface PlanJson {
  id: string;
  /** Absolute path, as `ralf plan` resolved it from the command's working directory. */
  path: string;
  tasks: PlanTaskJson[];
  plan: { phase: string | null; plan: string | null; requirements: string[] };
  plan_decision?: { decision: 'loop' | 'skip' | 'refuse' };
}

/** Facts the model reads from the expanded command body. */
export interface CommandFacts {
  runtime: string;
  planPath: string;
  plan: PlanJson;
  /** The workflow text arrived inside the prompt. */
  hasWorkflow: boolean;
}

/**
 * A subagent of /execute-phase gets only the phase workflow's prompt ("Execute the GSD plan
 * <PLAN>. First run: <runtime> install --render ..."), no plan analysis: the runtime and the
 * plan path from it, or null when the prompt is not that.
 */
export function readSubagentFacts(prompt: string): { runtime: string; planPath: string } | null {
  const planPath = /Execute the GSD plan (\S+?)\.?\s*$/m.exec(prompt)?.[1];
  const runtime = /First run: (.+) install --render workflows\/execute-plan\.md/.exec(prompt)?.[1]?.trim();
  return planPath && runtime ? { runtime, planPath } : null;
}

export function readCommandFacts(prompt: string): CommandFacts {
  const runtime = /^ralf runtime: (.+)$/m.exec(prompt)?.[1]?.trim();
  const planPath = /^Plan path: (\S+)/m.exec(prompt)?.[1];
  const json = /<plan_json>\s*([\s\S]*?)\s*<\/plan_json>/.exec(prompt)?.[1];
  if (!runtime || !planPath || !json) throw new Error(`the /execute-plan body did not reach the model:\n${prompt.slice(0, 2000)}`);
  return { runtime, planPath, plan: JSON.parse(json) as PlanJson, hasWorkflow: prompt.includes('# ralf-lite: execute one PLAN.md') };
}

/** The JSON document in a tool result that also holds a trailing `exit=N` line. */
export function jsonOf(result: string): Record<string, unknown> | null {
  const start = result.indexOf('{');
  const end = result.lastIndexOf('}');
  if (start < 0 || end < start) return null;
  try {
    return JSON.parse(result.slice(start, end + 1)) as Record<string, unknown>;
  } catch {
    return null;
  }
}

const bash = (command: string, description: string): Reply => ({ bash: command, description });
const withExit = (cmd: string) => `${cmd}; echo "exit=$?"`;

export function executePlanAgent(script: ExecutePlanScript): AgentScript {
  return function* (ctx) {
    let facts: { runtime: string; planPath: string; plan: PlanJson };
    const sub = readSubagentFacts(ctx.prompt);
    if (sub) {
      // Workflow step 1.1 for a subagent: the workflow, then the plan analysis, from the runtime.
      const workflow = yield bash(withExit(`${sub.runtime} install --render workflows/execute-plan.md`), 'render the workflow');
      if (!workflow.includes('# ralf-lite: execute one PLAN.md')) return `SCRIPTED: no workflow rendered:\n${workflow.slice(0, 400)}`;
      const analysis = jsonOf(yield bash(withExit(`${sub.runtime} plan ${sub.planPath} --json`), 'ralf plan'));
      if (!analysis || 'error' in analysis) return `SCRIPTED: ralf plan failed`;
      facts = { ...sub, plan: analysis as unknown as PlanJson };
    } else facts = readCommandFacts(ctx.prompt);
    const { runtime, planPath, plan } = facts;
    const ralf = (args: string) => withExit(`${runtime} ${args}`);
    const id = plan.id;
    const done: string[] = [];
    const deferred: string[] = [];
    const commits: string[] = [];

    // Harness guard, not workflow: every step below writes files relative to the shell's
    // directory, so refuse to go on anywhere but the project the plan lives in.
    const root = plan.path.slice(0, plan.path.lastIndexOf('/.planning/'));
    const where = yield bash(withExit(`test "$(pwd -P)" = '${root}'`), 'check the working directory');
    if (exitOf(where) !== 0) return `SCRIPTED: the shell is not in ${root}; stopping`;

    // Step 1.4: the resume point; tasks before it are finished and never redone.
    const statusText = yield bash(ralf(`status ${planPath} --json`), 'ralf status (resume point)');
    const status = jsonOf(statusText);
    // A model reads what the host hands it of a tool result; a document cut short has no resume_at.
    if (!status || !('resume_at' in status)) return `SCRIPTED: ralf status --json did not reach me whole (${statusText.length} characters):\n${statusText.slice(0, 300)}`;
    const resumeAt = status?.resume_at === null ? Number.POSITIVE_INFINITY : typeof status?.resume_at === 'number' ? status.resume_at : 1;
    const rows = (status?.tasks as Array<{ number: number; status: string }> | undefined) ?? [];
    // A stopped task at the resume point: its last handoff goes to the human first.
    let humanSaid: string | null = null;
    if (rows.find((t) => t.number === resumeAt)?.status === 'stopped') {
      const last = status?.last_handoff as { handoff?: { markdown?: string } } | undefined;
      humanSaid = yield { say: `${last?.handoff?.markdown ?? '(no handoff)'}\n\nReply: fixed by hand, a different approach, defer, or stop.` };
    }

    for (const task of plan.tasks) {
      const n = task.number;
      if (n < resumeAt || rows.find((t) => t.number === n)?.status === 'deferred') {
        done.push(task.name);
        continue;
      }
      if (humanSaid !== null && n === resumeAt) {
        const reply = humanSaid;
        humanSaid = null;
        if (!/defer/i.test(reply)) return `Stopped at task ${n} (loop handoff).`;
        const d = yield bash(ralf(`task defer ${planPath} ${n} --reason "deferred by the human after the loop stopped"`), `ralf task defer ${n}`);
        if (exitOf(d) !== 0) return `ralf task defer exited ${exitOf(d)}: stopping.\n${d}`;
        deferred.push(`Task ${n} (${task.name}): loop stopped; deferred by the human`);
        continue;
      }
      if (task.decision === 'refuse') {
        const el = task.elements ?? {};
        const reply = yield {
          say: [
            '## CHECKPOINT REACHED',
            '',
            `**Type:** ${(task.type ?? 'checkpoint:human-verify').replace('checkpoint:', '')}`,
            `**Plan:** ${id}`,
            `**Progress:** ${done.length}/${plan.tasks.length} tasks complete`,
            '',
            '### Current Task',
            '',
            `**Task ${n}:** ${task.name} — **Status:** awaiting verification`,
            '',
            '### Checkpoint Details',
            '',
            el['what-built'] ?? '',
            el['how-to-verify'] ?? '',
            '',
            '### Awaiting',
            '',
            el['resume-signal'] ?? 'Type "approved" or describe issues',
          ].join('\n'),
        };
        if (!/approved/i.test(reply)) return `Stopped at the checkpoint (task ${n}).`;
        done.push(task.name);
        continue;
      }

      const attempts = script.attempts[n] ?? [];
      if (task.decision === 'loop') yield bash(ralf(`task start ${planPath} ${n}`), `ralf task start ${n}`);
      let attempt = 0;
      if (attempts[0]) yield bash(withExit(attempts[0]), `implement task ${n}`);
      if (task.decision === 'skip') {
        done.push(task.name);
        continue;
      }
      let verify = ralf(`task verify ${planPath} ${n} --json`);
      for (;;) {
        const result = yield bash(verify, `ralf task verify ${n}`);
        const code = exitOf(result);
        const data = jsonOf(result);
        if (code === 0) {
          const files = task.files.join(' ');
          const commit = yield bash(withExit(`git add ${files} && git commit -q -m "feat(${id}): ${task.name}" -- ${files} && git rev-parse --short HEAD`), `commit task ${n}`);
          commits.push(commit.split('\n')[0]!.trim());
          done.push(task.name);
          break;
        }
        if (code === 11) {
          // The manual criterion holds: the check proves it. The same command, confirmed.
          verify = ralf(`task verify ${planPath} ${n} --json --done-confirmed`);
          continue;
        }
        if (code === 10) {
          attempt++;
          verify = ralf(`task verify ${planPath} ${n} --json`);
          if (script.endTurnOnRetry?.includes(n)) {
            const reply = yield { say: `Task ${n} is implemented.` };
            const named = /^\s+(.+ task verify .+ --json)\s*$/m.exec(reply)?.[1];
            if (!HOLD_REASON.test(reply) || !named) return `SCRIPTED: released while task ${n} was retrying (iteration ${String(data?.iteration)}).`;
            verify = withExit(named);
          }
          const fix = attempts[Math.min(attempt, attempts.length - 1)];
          if (fix) yield bash(withExit(fix), `repair task ${n} (attempt ${attempt + 1})`);
          continue;
        }
        if (code === 20) {
          const handoff = (data?.handoff as { markdown?: string } | undefined)?.markdown ?? '(no handoff)';
          const reply = yield { say: `${handoff}\n\nReply: fixed by hand, a different approach, defer, or stop.` };
          if (!/defer/i.test(reply)) return `Stopped at task ${n} (loop handoff).`;
          const d = yield bash(ralf(`task defer ${planPath} ${n} --reason "deferred by the human after the loop stopped"`), `ralf task defer ${n}`);
          if (exitOf(d) !== 0) return `ralf task defer exited ${exitOf(d)}: stopping.\n${d}`;
          deferred.push(`Task ${n} (${task.name}): loop stopped with ${String(data?.stop_reason)}; deferred by the human`);
          break;
        }
        return `ralf task verify exited ${code}: stopping.\n${result}`;
      }
    }

    // Step 4: the plan-level loop, for autonomous: true plans.
    if (plan.plan_decision?.decision === 'loop') {
      let verify = ralf(`plan verify ${planPath} --json`);
      for (;;) {
        const result = yield bash(verify, 'ralf plan verify');
        const code = exitOf(result);
        if (code === 0) break;
        if (code === 11) {
          // Each `manual` criterion (must_haves.truths) checked: the tests the plan runs prove them.
          verify = ralf(`plan verify ${planPath} --json --done-confirmed`);
          continue;
        }
        const handoff = (jsonOf(result)?.handoff as { markdown?: string } | undefined)?.markdown;
        return handoff ? `${handoff}\n\nThe plan-level loop stopped.` : `ralf plan verify exited ${code}: stopping.\n${result}`;
      }
    }

    const summaryPath = planPath.replace(/-PLAN\.md$/, '-SUMMARY.md');
    const summary = [
      '---',
      `phase: ${plan.plan.phase ?? ''}`,
      `plan: ${plan.plan.plan ?? ''}`,
      'subsystem: e2e',
      'tags: [e2e]',
      `requirements-completed: [${(plan.plan.requirements ?? []).join(', ')}]`,
      'duration: 1min',
      'completed: 2026-01-01',
      '---',
      '',
      `# Phase ${plan.plan.phase ?? ''} Plan ${plan.plan.plan ?? ''}: Summary`,
      '',
      `**${done.length - deferred.length} of ${plan.tasks.length} tasks done with verified checks${deferred.length ? `; ${deferred.length} deferred after the loop stopped` : ''}**`,
      '',
      '## Task Commits',
      '',
      ...commits.map((c, i) => `${i + 1}. ${c}`),
      '',
      '## Deviations from Plan',
      '',
      'None - plan executed exactly as written.',
      '',
      '## Deferred Issues',
      '',
      ...(deferred.length ? deferred.map((d) => `- ${d}`) : ['None']),
      '',
    ].join('\n');
    yield bash(withExit(`cat > ${summaryPath} <<'RALF_EOF'\n${summary}\nRALF_EOF`), 'write SUMMARY.md');
    const report = yield bash(ralf(`report ${planPath}`), 'ralf report');
    if (exitOf(report) !== 0) return `ralf report failed:\n${report}`;
    yield bash(withExit(`git add ${summaryPath} && git commit -q -m "docs(${id}): complete plan" -- ${summaryPath}`), 'commit SUMMARY');
    return ['## PLAN COMPLETE', '', `**Plan:** ${id}`, `**Tasks:** ${done.length}/${plan.tasks.length}`, `**SUMMARY:** ${summaryPath}`].join('\n');
  };
}
