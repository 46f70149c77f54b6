/**
 * The package as users get it: `npm pack`, then `npx ralf-lite install` from the tarball
 * into a temp prefix, offline (the bundled runtime has no dependencies to fetch), and the
 * Claude Code marketplace in the real Claude Code (`claude plugin marketplace add` +
 * `claude plugin install`), whose /ralf-lite:execute-plan and Stop hook then work.
 */
import { execa } from 'execa';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '../helpers/cli.js';
import { claudeBin, claudeEnv, makeSandbox, runClaude } from './hosts.js';
import { exitOf, type Reply } from './scripted-model/agent.js';
import { readCommandFacts } from './scripted-model/execute-plan-agent.js';
import { startScriptedModel, type ScriptedModel } from './scripted-model/server.js';

const PLAN = '.planning/phases/01-math/01-01-PLAN.md';
const bash = (command: string): Reply => ({ bash: `${command}; echo "exit=$?"`, description: 'scripted step' });

let tarball: string;
let unpacked: string;

beforeAll(async () => {
  const dir = tempDir('ralf-pack-');
  // dist/ is already built by the test run; --ignore-scripts keeps `prepack` from rebuilding it under other tests.
  const r = await execa('npm', ['pack', '--ignore-scripts', '--pack-destination', dir, '--silent'], { cwd: repoRoot });
  tarball = join(dir, readdirSync(dir).find((f) => f.endsWith('.tgz'))!);
  unpacked = join(dir, 'unpacked');
  mkdirSync(unpacked);
  await execa('tar', ['xzf', tarball, '-C', unpacked]);
  unpacked = join(unpacked, 'package');
  expect(r.exitCode).toBe(0);
}, 120_000);

describe('npm package', () => {
  it('holds the runtime, the sources, the plugin, the marketplace and the LICENSE, and depends on nothing', () => {
    const pkg = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8'));
    expect(pkg.dependencies ?? {}).toEqual({});
    for (const f of ['dist/ralf.js', 'dist/opencode-plugin.mjs', 'commands/execute-plan.md', 'workflows/execute-plan.md', 'hooks/hooks.json', '.claude-plugin/plugin.json', '.claude-plugin/marketplace.json', 'LICENSE']) {
      expect(existsSync(join(unpacked, f)), f).toBe(true);
    }
    expect(readFileSync(join(unpacked, 'LICENSE'), 'utf8')).toContain('MIT License');
    expect(pkg.exports['.']).toBe('./dist/opencode-plugin.mjs');
  });

  it('`npx ralf-lite install` from the tarball, offline, into a temp prefix', async () => {
    const prefix = tempDir('ralf-prefix-');
    const config = join(tempDir('ralf-npx-'), '.claude');
    const env = { ...process.env, npm_config_prefix: prefix, npm_config_cache: join(prefix, 'cache'), npm_config_offline: 'true', npm_config_update_notifier: 'false' };
    const r = await execa('npm', ['exec', '--yes', `--package=${tarball}`, '--', 'ralf-lite', 'install', '--claude', '--config-dir', config, '--json'], { env, reject: false, cwd: prefix });
    expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(0);
    const out = JSON.parse(String(r.stdout));
    expect(out.targets[0].root).toBe(config);
    expect(existsSync(join(config, 'commands', 'execute-plan.md'))).toBe(true);
    expect(readFileSync(join(config, 'settings.json'), 'utf8')).toContain('hook stop');
    // A global install of the tarball pulls in no other package.
    const g = await execa('npm', ['install', '-g', tarball], { env, reject: false });
    expect(g.exitCode, String(g.stderr)).toBe(0);
    expect(readdirSync(join(prefix, 'lib', 'node_modules'))).toEqual(['ralf-lite']);
    expect(existsSync(join(prefix, 'lib', 'node_modules', 'ralf-lite', 'node_modules'))).toBe(false);
    expect((await execa(join(prefix, 'bin', 'ralf'), ['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+/);
  }, 120_000);
});

describe('Claude Code marketplace (real CLI)', () => {
  let model: ScriptedModel;
  beforeAll(async () => {
    model = await startScriptedModel({
      agent: function* (ctx) {
        const { runtime, planPath } = readCommandFacts(ctx.prompt);
        yield bash(`${runtime} task start ${planPath} 1`);
        const v = yield bash(`${runtime} task verify ${planPath} 1 --json`);
        const reply = yield { say: `verify exited ${exitOf(v)}; done.` };
        return reply.includes('Stop hook feedback') ? 'SCRIPTED: held by the plugin hook' : 'SCRIPTED: not held';
      },
    });
  });
  afterAll(async () => {
    await model?.close();
  });

  it('marketplace add + plugin install; /ralf-lite:execute-plan runs and the plugin\'s Stop hook holds', async () => {
    const sb = await makeSandbox();
    const env = { ...claudeEnv(sb, model.url), PWD: sb.project };
    const add = await execa(claudeBin, ['plugin', 'marketplace', 'add', unpacked], { env, extendEnv: false, reject: false, cwd: sb.project, timeout: 60_000 });
    expect(add.exitCode, `${add.stdout}\n${add.stderr}`).toBe(0);
    const install = await execa(claudeBin, ['plugin', 'install', 'ralf-lite@ralf-lite'], { env, extendEnv: false, reject: false, cwd: sb.project, timeout: 60_000 });
    expect(install.exitCode, `${install.stdout}\n${install.stderr}`).toBe(0);
    const run = await runClaude(sb, model.url, `/ralf-lite:execute-plan ${PLAN}`);
    expect(run.timedOut).toBe(false);
    expect(run.stdout).toContain('SCRIPTED: held by the plugin hook');
  }, 180_000);
});
