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
}

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
}

/** Facts the model reads from the expanded command body. */
export interface CommandFacts {
  runtime: string;
  planPath: string;
  plan: PlanJson;
  /** The workflow text arrived inside the prompt. */
  hasWorkflow: boolean;
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
    const { runtime, planPath, plan } = readCommandFacts(ctx.prompt);
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
    const status = jsonOf(yield bash(ralf(`status ${planPath} --json`), 'ralf status (resume point)'));
    const resumeAt = status?.resume_at === null ? Number.POSITIVE_INFINITY : typeof status?.resume_at === 'number' ? status.resume_at : 1;

    for (const task of plan.tasks) {
      const n = task.number;
      if (n < resumeAt) {
        done.push(task.name);
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
      let confirm = '';
      for (;;) {
        const result = yield bash(ralf(`task verify ${planPath} ${n} --json${confirm}`), `ralf task verify ${n}`);
        const code = exitOf(result);
        const data = jsonOf(result);
        if (code === 0) {
          const files = task.files.join(' ');
          const commit = yield bash(withExit(`git add ${files} && git commit -q -m "feat(${id}): ${task.name}" && git rev-parse --short HEAD`), `commit task ${n}`);
          commits.push(commit.split('\n')[0]!.trim());
          done.push(task.name);
          break;
        }
        if (code === 11) {
          confirm = ' --done-confirmed'; // the manual criterion holds: the check proves it
          continue;
        }
        if (code === 10) {
          attempt++;
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

    const summaryPath = planPath.replace(/-PLAN\.md$/, '-SUMMARY.md');
    const summary = [
      '---',
      `phase: ${plan.plan.phase ?? ''}`,
      `plan: ${plan.plan.plan ?? ''}`,
      'subsystem: math',
      'tags: [e2e]',
      `requirements-completed: [${(plan.plan.requirements ?? []).join(', ')}]`,
      'duration: 1min',
      'completed: 2026-01-01',
      '---',
      '',
      `# Phase ${plan.plan.phase ?? ''} Plan ${plan.plan.plan ?? ''}: Math helpers Summary`,
      '',
      '**sum() with a verified fix; ratio() deferred after the loop stopped**',
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
    yield bash(withExit(`git add ${summaryPath} && git commit -q -m "docs(${id}): complete plan"`), 'commit SUMMARY');
    return ['## PLAN COMPLETE', '', `**Plan:** ${id}`, `**Tasks:** ${done.length}/${plan.tasks.length}`, `**SUMMARY:** ${summaryPath}`].join('\n');
  };
}
