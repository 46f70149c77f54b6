/**
 * The plan cache lets repeated verifies skip config loading and plan parsing. It must never
 * answer with a stale config or plan: every input it was derived from is part of its key.
 */
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPlanTarget } from '../../src/engine/shell/context.js';
import { defaultDeps, type EngineDeps } from '../../src/engine/shell/deps.js';
import { cachePath } from '../../src/engine/shell/plan-cache.js';
import { hostSelectingEnvKeys } from '../../src/hosts/select-host.js';
import { cleanEnv, repoRoot, tempDir } from '../helpers/cli.js';

const PLAN = (verify: string) =>
  `---\nphase: 01-x\nplan: 01\ntype: execute\nwave: 1\ndepends_on: []\nfiles_modified: [a.txt]\nautonomous: true\n---\n\n<tasks>\n<task type="auto">\n  <name>Task 1: one</name>\n  <files>a.txt</files>\n  <action>x</action>\n  <verify>\`${verify}\`</verify>\n  <done>ok</done>\n</task>\n</tasks>\n`;

/** Files written "long ago" so the cache's racy-file guard (2 s) does not refuse to cache them. */
let age = 100;
function writeOld(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  const t = Date.now() / 1000 - 3600 + age++;
  utimesSync(path, t, t);
}

function project() {
  const root = tempDir('ralf-cache-');
  const home = join(root, 'home');
  mkdirSync(home);
  const planPath = join(root, '.planning', 'phases', '01-x', '01-01-PLAN.md');
  writeOld(join(root, '.planning', 'config.json'), JSON.stringify({ ralf_lite: { max_iterations: 4 } }));
  writeOld(planPath, PLAN('true'));
  return { root, home, planPath };
}

/** The real collaborators, counting how often config/plan are actually loaded. */
async function countingDeps(): Promise<{ deps: EngineDeps; loads: () => number }> {
  const real = await defaultDeps();
  let loads = 0;
  return {
    deps: {
      ...real,
      planning: async () => {
        const p = await real.planning();
        return { ...p, loadConfig: (o) => (loads++, p.loadConfig(o)) };
      },
    },
    loads: () => loads,
  };
}

describe('plan cache', () => {
  it('answers a repeat load without loading config or parsing, with the same result', async () => {
    const { root, home, planPath } = project();
    const { deps, loads } = await countingDeps();
    const env = cleanEnv({ HOME: home, CLAUDE_CODE_OAUTH_TOKEN: 'oauth-secret-1', ANTHROPIC_API_KEY: 'sk-secret-2' });
    const first = await loadPlanTarget(deps, planPath, { env });
    const second = await loadPlanTarget(deps, planPath, { env });
    expect(loads()).toBe(1);
    expect(second.effective.config).toEqual(first.effective.config);
    expect(second.plan.tasks.map((t) => [t.number, t.decision, t.checks])).toEqual(first.plan.tasks.map((t) => [t.number, t.decision, t.checks]));
    expect(second.effective.config.max_iterations).toBe(4);
    // The cache sits in the project: it must not carry the environment's secrets.
    const file = readFileSync(cachePath(root, '01-01'), 'utf8');
    expect(file).not.toMatch(/oauth-secret-1|sk-secret-2/);
  });

  it('misses when the project config, the plan or a global config file changes', async () => {
    const { root, home, planPath } = project();
    const { deps, loads } = await countingDeps();
    const env = cleanEnv({ HOME: home });
    await loadPlanTarget(deps, planPath, { env });

    writeOld(join(root, '.planning', 'config.json'), JSON.stringify({ ralf_lite: { max_iterations: 7 } }));
    expect((await loadPlanTarget(deps, planPath, { env })).effective.config.max_iterations).toBe(7);

    writeOld(planPath, PLAN('node -e 1'));
    expect((await loadPlanTarget(deps, planPath, { env })).plan.tasks[0]?.checks.map((c) => ('command' in c ? c.command : c.kind))).toEqual(['node -e 1']);

    // A global config file that did not exist when the cache was written.
    writeOld(join(home, '.config', 'opencode', 'get-shit-done', 'config.json'), JSON.stringify({ ralf_lite: { no_progress_repeats: 5 } }));
    expect((await loadPlanTarget(deps, planPath, { env })).effective.config.no_progress_repeats).toBe(5);
    expect(loads()).toBe(4);
  });

  it('misses when an env var that selects the host or config dir changes, not for unrelated ones', async () => {
    const { home, planPath } = project();
    const claudeDir = join(home, 'claude-config');
    writeOld(join(claudeDir, 'get-shit-done', 'config.json'), JSON.stringify({ ralf_lite: { max_iterations: 9 } }));
    const { deps, loads } = await countingDeps();
    await loadPlanTarget(deps, planPath, { env: cleanEnv({ HOME: home }) });
    await loadPlanTarget(deps, planPath, { env: cleanEnv({ HOME: home, RALF_TIMING: '1', UNRELATED: 'x' }) });
    expect(loads()).toBe(1);
    const claude = await loadPlanTarget(deps, planPath, { env: cleanEnv({ HOME: home, CLAUDECODE: '1', CLAUDE_CONFIG_DIR: claudeDir }) });
    expect(claude.effective.config.max_iterations).toBe(4); // the project's value wins over the global one
    expect(claude.effective.sources.max_iterations).toMatch(/config\.json/);
    expect(loads()).toBe(2);
    await loadPlanTarget(deps, planPath, { env: cleanEnv({ HOME: home }), host: 'claude' });
    expect(loads()).toBe(3);
  });

  it('treats a corrupt cache file as a miss', async () => {
    const { root, home, planPath } = project();
    const { deps, loads } = await countingDeps();
    const env = cleanEnv({ HOME: home });
    await loadPlanTarget(deps, planPath, { env });
    writeFileSync(cachePath(root, '01-01'), '{"format": 2, "key": tru');
    expect((await loadPlanTarget(deps, planPath, { env })).effective.config.max_iterations).toBe(4);
    expect(loads()).toBe(2);
  });

  it('is keyed on every env var the hosts read', () => {
    // A host reading an env var the key leaves out would let a cached config outlive a change of it.
    const source = readFileSync(join(repoRoot, 'src', 'hosts', 'host.ts'), 'utf8');
    const read = [...source.matchAll(/\benv\.([A-Z_][A-Z0-9_]*)/g)].map((m) => m[1]);
    expect(read.length).toBeGreaterThan(3);
    expect(hostSelectingEnvKeys()).toEqual(expect.arrayContaining([...new Set(read), 'RALF_HOST']));
  });
});
