/**
 * /execute-plan's arguments never reach a shell (#16 item 5): the command hands them to
 * `ralf plan --arguments-stdin` in a quoted here-document, which the runtime decodes.
 * Every payload class, in the real Claude Code and the real OpenCode, against the scripted
 * model: no payload ran (its marker file is absent), the model still got the plan analysis
 * (an error naming the literal text, or the plan at a path with spaces).
 */
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { claudeEnv, makeSandbox, opencodeEnv, runClaude, type Sandbox } from './hosts.js';
import { startOpencodeServer, type OpencodeServer } from './opencode-server.js';
import { startScriptedModel, type ScriptedModel } from './scripted-model/server.js';

/** One payload per class; `{M}` is the marker file a payload would create if a shell ran it. */
const PAYLOADS: Array<{ name: string; args: string; hosts: Array<'claude' | 'opencode'> }> = [
  { name: 'semicolon', args: '.planning/x.md; touch {M}', hosts: ['claude', 'opencode'] },
  { name: 'command substitution', args: '.planning/$(touch {M}).md', hosts: ['claude', 'opencode'] },
  { name: 'backticks', args: '.planning/`touch {M}`.md', hosts: ['claude', 'opencode'] },
  { name: 'newline', args: '.planning/x.md\ntouch {M}', hosts: ['claude', 'opencode'] },
  { name: 'redirection', args: '.planning/x.md > {M}', hosts: ['claude', 'opencode'] },
  { name: 'here-document end', args: '.planning/x.md\n!RALF_ARGUMENTS\ntouch {M}', hosts: ['claude'] },
  // OpenCode runs !`...` wherever it appears in a command's text, the user's arguments
  // included: its own feature, not something ralf's command file can turn off.
  { name: 'host shell syntax', args: '.planning/x.md !`touch {M}`', hosts: ['claude'] },
];

const SPACED_DIR = '.planning/phases/01 my math';
const SPACED_PLAN = `${SPACED_DIR}/01-01-PLAN.md`;

function spacedPlan(sb: Sandbox): void {
  mkdirSync(join(sb.project, SPACED_DIR), { recursive: true });
  cpSync(join(sb.project, '.planning/phases/01-math/01-01-PLAN.md'), join(sb.project, SPACED_PLAN));
}

const planJsonOf = (text: string) => /<plan_json>\s*([\s\S]*?)\s*<\/plan_json>/.exec(text)?.[1] ?? '';

describe('/execute-plan arguments are never run by a shell', () => {
  let model: ScriptedModel;
  beforeAll(async () => {
    model = await startScriptedModel({
      agent: function* () {
        return 'SCRIPTED: read the command';
      },
    });
  });
  afterAll(async () => {
    await model?.close();
  });

  it('Claude Code: every payload class, and a plan path with spaces', async () => {
    const sb = await makeSandbox();
    spacedPlan(sb);
    expect((await runCli(['install', '--claude'], { env: claudeEnv(sb, model.url), cwd: sb.project })).exitCode).toBe(0);
    for (const p of PAYLOADS.filter((x) => x.hosts.includes('claude'))) {
      const marker = join(sb.base, `pwn-${p.name.replace(/\W+/g, '-')}`);
      const from = model.requests.length;
      const run = await runClaude(sb, model.url, `/execute-plan ${p.args.replaceAll('{M}', marker)}`);
      expect(run.timedOut).toBe(false);
      expect(existsSync(marker), `${p.name} ran`).toBe(false);
      const plan = planJsonOf(model.requests.slice(from).find((r) => r.shellTool)!.userText);
      expect(plan, p.name).toMatch(/"error"|not found|no such|does not exist/i);
    }
    const from = model.requests.length;
    await runClaude(sb, model.url, `/execute-plan ${SPACED_PLAN}`);
    expect(planJsonOf(model.requests.slice(from).find((r) => r.shellTool)!.userText)).toContain('"id": "01-01"');
  }, 180_000);

  describe('OpenCode', () => {
    let sb: Sandbox;
    let server: OpencodeServer;
    beforeAll(async () => {
      sb = await makeSandbox();
      spacedPlan(sb);
      expect((await runCli(['install', '--opencode'], { env: opencodeEnv(sb, model.url), cwd: sb.project })).exitCode).toBe(0);
      server = await startOpencodeServer(sb, model.url);
    }, 90_000);
    afterAll(async () => {
      await server?.close();
    });

    it('every payload class, and a plan path with spaces', async () => {
      for (const p of PAYLOADS.filter((x) => x.hosts.includes('opencode'))) {
        const marker = join(sb.base, `pwn-${p.name.replace(/\W+/g, '-')}`);
        const from = model.requests.length;
        const id = await server.newSession();
        await server.command(id, 'execute-plan', p.args.replaceAll('{M}', marker));
        await server.settle(id, 500);
        expect(existsSync(marker), `${p.name} ran`).toBe(false);
        const plan = planJsonOf(model.requests.slice(from).find((r) => r.shellTool)!.userText);
        expect(plan, p.name).toMatch(/"error"|not found|no such|does not exist/i);
      }
      const from = model.requests.length;
      const id = await server.newSession();
      await server.command(id, 'execute-plan', SPACED_PLAN);
      await server.settle(id, 500);
      expect(planJsonOf(model.requests.slice(from).find((r) => r.shellTool)!.userText)).toContain('"id": "01-01"');
    }, 180_000);
  });
});
