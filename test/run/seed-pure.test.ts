/** The seed systems' pure rules: copilot_ralf's matrix, persistence.yaml, model flags, identity, hard failures. */
import { describe, expect, it } from 'vitest';
import { joinAgentArgs } from '../../src/commands/run.js';
import { copilotLabel, learningsOf } from '../../src/formats/copilot-ralf.js';
import { slugOf, uniqueIds } from '../../src/formats/item-identity.js';
import { PERSISTENCE_DEFAULTS, persistenceLimits } from '../../src/formats/persistence-loop.js';
import { claudeModelArgs, opencodeModelArgs } from '../../src/run/agents/model-flags.js';
import { classifyAgentRun } from '../../src/run/classify.js';
import { errorOf } from '../helpers/errors.js';

describe('copilot_ralf decision matrix', () => {
  it('labels promise × [x] × files changed as its ralph-loop.sh does', () => {
    const l = (promise: boolean, marked: boolean, files_changed: boolean) => copilotLabel({ promise, marked, files_changed });
    expect([l(true, true, true), l(true, true, false), l(false, true, true), l(true, false, true), l(true, false, false), l(false, false, true), l(false, false, false)]).toEqual([
      'VERIFIED',
      'VERIFIED',
      'COMPLETED',
      'PARTIAL',
      'SUSPICIOUS',
      'INCOMPLETE',
      'NO PROGRESS',
    ]);
    expect(copilotLabel({ promise: true, marked: true, files_changed: true, timed_out: true })).toBe('TIMEOUT');
  });

  it('reads the Learnings section and the Learnings lines of progress.md', () => {
    const text = '# Progress\n\n## Learnings\n\n- use pnpm\n\n## Iteration Log\n\n### Iteration 1\n- **Status:** done\n\n## 2026 — Task 1\n\n- Learnings: gate checks every file\n';
    expect(learningsOf(text)).toBe('- use pnpm\n- Learnings: gate checks every file');
  });
});

describe('persistence.yaml', () => {
  it('keeps the seed defaults, reads its keys, and names a bad one', () => {
    expect(persistenceLimits({}, 'p.yaml')).toEqual({ ...PERSISTENCE_DEFAULTS, file: 'p.yaml' });
    expect(PERSISTENCE_DEFAULTS).toMatchObject({ max_iterations: 100, warn_threshold: 0.8, backoff_seconds: [1, 2, 4, 8, 16], jitter: 0.2, per_step_seconds: 300, total_seconds: 3600 });
    const seed = { persistence_loop: { max_iterations: 100, warn_threshold: 0.8, checkpoint_interval: 1, retry: { max_attempts: 3, backoff_strategy: 'exponential', base_delay: 1.0, max_delay: 16.0, jitter: 0.2 }, timeout: { per_step: 300, total: 3600 } } };
    expect(persistenceLimits(seed, 'p.yaml')).toMatchObject({ max_iterations: 100, backoff_seconds: [1, 2, 4], jitter: 0.2 });
    const bad = errorOf(() => persistenceLimits({ persistence_loop: { max_iterations: 500 } }, 'p.yaml'));
    expect(bad.message).toBe('p.yaml: persistence_loop.max_iterations: expected an integer from 1 to 100 (ralf caps a loop at 100 iterations)');
  });
});

describe('model and reasoning onto the CLIs', () => {
  it('claude: --model, --effort; none: no thinking; the user’s own flag wins', () => {
    expect(claudeModelArgs({ model: 'sonnet', reasoning: 'med' }, [])).toEqual({ args: ['--model', 'sonnet', '--effort', 'medium'], env: {} });
    expect(claudeModelArgs({ model: 'opus', reasoning: 'none' }, ['--model', 'haiku'])).toEqual({ args: [], env: { MAX_THINKING_TOKENS: '0' } });
  });
  it('opencode: provider/model names and --variant', () => {
    expect(opencodeModelArgs({ model: 'haiku', reasoning: 'high' }, [])).toEqual(['--model', 'anthropic/claude-haiku-4-5', '--variant', 'high']);
    expect(opencodeModelArgs({ model: 'openai/gpt-4.1', reasoning: null }, [])).toEqual(['--model', 'openai/gpt-4.1']);
  });
  it('--agent-arg takes a value that looks like a flag', () => {
    expect(joinAgentArgs(['x', '--agent-arg', '--model', '--agent-arg', 'sonnet', '--json'])).toEqual(['x', '--agent-arg=--model', '--agent-arg=sonnet', '--json']);
  });
});

describe('identity and failure classes', () => {
  it('slugs text stably and numbers repeats', () => {
    expect(slugOf('**Task 1: Créer `sysinfo.sh`** now!')).toBe('task-1-creer-sysinfo-sh-now');
    expect(uniqueIds(['a', 'b', 'a', 'a'])).toEqual(['a', 'b', 'a#2', 'a#3']);
  });
  it('slugs keep the letters of every script, so items named in Japanese or Chinese stay distinct', () => {
    expect(slugOf('日本語の挨拶を表示する')).toBe('日本語の挨拶を表示する');
    expect(slugOf('中文问候语')).toBe('中文问候语');
    expect(slugOf('Grüße auf Deutsch — „Hallo, Welt!“ 👋')).toBe('gruße-auf-deutsch-hallo-welt');
    expect(slugOf('がぎぐ')).toBe('がぎぐ');
    expect(slugOf('👋 🎉')).toBe('item');
  });
  it('Permission denied from a failed agent is hard; from a successful one it is nothing', () => {
    const base = { signal: null, timedOut: false, spawnErrorCode: null, stdoutTail: '', hostError: null };
    expect(classifyAgentRun({ ...base, exitCode: 1, stderrTail: 'bash: ./deploy.sh: Permission denied' })).toMatchObject({ kind: 'hard', reason: 'permission' });
    expect(classifyAgentRun({ ...base, exitCode: 0, stderrTail: 'bash: ./deploy.sh: Permission denied' })).toMatchObject({ kind: 'ok' });
  });
});
