/**
 * Every real GSD plan in ../shared/fixtures/gsd-real parses, and each file's task count
 * and decisions match what a person reading the file expects (default config: loop on,
 * auto_tasks, autonomous_plans, no tdd_tasks, no project commands). The rows were written
 * from reading the plans (task tags, their <verify>/<done>, the frontmatter), not copied
 * from parser output; the notes say why the less obvious ones are what they are.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DEFAULT_CONFIG } from '../../src/config/schema.js';
import { decidePlan } from '../../src/plan/decide.js';
import { parsePlanText } from '../../src/plan/parse.js';
import { readPlan, readPlanText } from '../../src/plan/read.js';
import type { Plan } from '../../src/plan/model.js';
import { sharedDir } from '../helpers/cli.js';
import { DEV_MACHINE } from './machine.js';

const corpus = join(sharedDir, 'fixtures', 'gsd-real');

function planFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) planFiles(p, out);
    else if (e.name.endsWith('PLAN.md')) out.push(p);
  }
  return out;
}

type Row = [file: string, tasks: number, loop: number, skip: number, refuse: number, autonomous: boolean | null, plan: 'loop' | 'skip' | 'refuse'];

// prettier-ignore
const EXPECTED: Row[] = [
  // type: tdd, a single <feature>, no <task>: nothing to wrap; plan skipped (TDD plan, tdd_tasks off)
  ['0xc0re__godot-mcp/.planning/phases/02-scene-intelligence/02-01-PLAN.md', 0, 0, 0, 0, true, 'skip'],
  // both tasks are auto tdd="true"
  ['0xc0re__godot-mcp/.planning/phases/02-scene-intelligence/02-03-PLAN.md', 2, 0, 2, 0, true, 'loop'],
  // task 1 tdd="true"; tasks 2, 3 have <automated> commands
  ['4everinbeta__liminal/.planning/phases/07-make-iphone-compatible-app-version/07-02-PLAN.md', 3, 2, 1, 0, true, 'loop'],
  ['4everinbeta__liminal/.planning/phases/09-mobile-ci-cd/09-02-PLAN.md', 2, 0, 0, 2, false, 'refuse'],
  // autonomous: "true" (a string); all three tasks tdd="true"
  ['5teel__SOPstart/.planning/phases/12.5-blueprint-redesign/12.5-02-PLAN.md', 3, 0, 3, 0, true, 'loop'],
  // contradiction: a human-action checkpoint in an autonomous: true plan
  ['5teel__SOPstart/.planning/phases/13-reusable-block-library/13-02-PLAN.md', 3, 2, 0, 1, true, 'refuse'],
  // tdd="false" on all three; &amp;&amp;-escaped <automated>
  ['AbianS__prisma-generate-uml/.planning/phases/01-foundation/01-02-PLAN.md', 3, 3, 0, 0, true, 'loop'],
  ['AdityaPawade__klausbot/.planning/phases/02-core-loop/02-04-PLAN.md', 1, 0, 0, 1, false, 'refuse'],
  ['AdityaPawade__klausbot/.planning/phases/05.1-mcp-cron/05.1-02-PLAN.md', 3, 2, 0, 1, false, 'refuse'],
  // every <verify> names `npm run build` or another backticked command
  ['AdityaPawade__klausbot/.planning/phases/07.2-conversation-continuity/07.2-02-PLAN.md', 5, 5, 0, 0, true, 'loop'],
  ['AllTheMachines__Faceplate/.planning/phases/14-security-foundation-upload-pipeline/14-01-PLAN.md', 0, 0, 0, 0, true, 'skip'],
  // bare verify lines: `grep -c ... shows 3+ matches`, `ls A B C all exist`, `grep -c ... shows 6+ matches`
  ['AllTheMachines__Faceplate/.planning/phases/24-navigation-selection/24-02-PLAN.md', 3, 3, 0, 0, true, 'loop'],
  ['AnthonyAlcaraz__pitchable/.planning/phases/02-knowledge-base/02-04-PLAN.md', 2, 2, 0, 0, true, 'loop'],
  // YAML after the H1, "### Task N" Markdown tasks, no autonomous key
  ['Arengard__navision_gdpdu/.planning/phases/04-data-parser/04-01-PLAN.md', 0, 0, 0, 0, null, 'skip'],
  // verify is prose ("Build succeeds ...") except task 4: "cmake --build build --config Release succeeds"
  ['Arengard__navision_gdpdu/.planning/phases/05-integration/05-01-PLAN.md', 5, 1, 4, 0, true, 'loop'],
  // fenced yaml metadata; 4 untyped <task id="N">; plan checks from the "## Verification" bash fence
  ['Atypical-Consulting__FlowForge/.planning/phases/05-topology-visualization/05-02-PLAN.md', 4, 0, 4, 0, true, 'loop'],
  ['Atypical-Consulting__FlowForge/.planning/phases/20-blade-infrastructure-modal-migration/PLAN.md', 0, 0, 0, 0, null, 'skip'],
  // 10 untyped <task id="N" title="...">
  ['Atypical-Consulting__FlowForge/.planning/phases/22-new-content-blades/22-02-PLAN.md', 10, 0, 10, 0, true, 'loop'],
  // one <task type="tdd">
  ['Atypical-Consulting__FlowForge/.planning/phases/26-xstate-navigation-fsm/26-01-PLAN.md', 1, 0, 1, 0, true, 'skip'],
  ['Atypical-Consulting__FlowForge/.planning/quick/34-move-files-related-to-extensions-closer-/34-PLAN.md', 3, 3, 0, 0, true, 'loop'],
  ['Birkankader__WhaleCode/.planning/phases/01-foundation/01-03-PLAN.md', 3, 0, 2, 1, false, 'refuse'],
  // checkpoint:decision gate="blocking-human", then an auto task with two <automated>
  ['FerroxLabs__wayland-core/.planning/phases/20-transactional-delegated-mutation/archive/native-split/20-25-PLAN.md', 2, 1, 0, 1, false, 'refuse'],
  // 149 KB, 7 auto tasks with up to 14 <automated> each
  ['FerroxLabs__wayland-core/.planning/phases/20-transactional-delegated-mutation/archive/native-split/20-75-PLAN.md', 7, 7, 0, 0, true, 'loop'],
  ['FerroxLabs__wayland-core/.planning/phases/20A-native-windows-macos-uat/20A-04-PLAN.md', 5, 4, 0, 1, false, 'refuse'],
  // contradiction: checkpoint:decision in an autonomous: true plan; the two auto tasks are tdd="true"
  ['FerroxLabs__wayland-core/.planning/phases/28-native-cross-platform-certification/28-03-PLAN.md', 3, 0, 2, 1, true, 'refuse'],
  // "## Metadata" yaml fence; 4 untyped tasks + <task id="5" type="checkpoint:human-verify">
  ['JesperMorais__LagomStronk/.planning/phases/02-ux-overhaul-exercise-system/02-10-PLAN.md', 5, 0, 4, 1, false, 'refuse'],
  // task 2: "- css/library.css exists" / "- js/ui/components/exerciseCard.js exists"; 1 and 3 are prose
  ['JesperMorais__LagomStronk/.planning/phases/02-ux-overhaul-exercise-system/archived/02-07-PLAN.md', 3, 1, 2, 0, true, 'loop'],
  // task 1 expects pytest to FAIL (red phase) and task 4 runs an unknown tool with an output check: skip
  ['MarkMichiels__livemathtex/.planning/archive/v1.1/phases/01-critical-bug-fix/01-01-PLAN.md', 5, 3, 2, 0, null, 'skip'],
  ['MarkMichiels__livemathtex/.planning/phases/03-fix-evaluation-unit-lookup/03-01-PLAN.md', 0, 0, 0, 0, null, 'skip'],
  ['MarkMichiels__livemathtex/.planning/phases/13-si-value-fix/PLAN.md', 0, 0, 0, 0, null, 'skip'],
  ['MarkMichiels__livemathtex/.planning/phases/23-remove-latex2sympy/23-01-PLAN.md', 0, 0, 0, 0, null, 'skip'],
  // task 3: "Navigate to /workspaces in browser, verify page loads"
  ['RondoHQ__rondo-club/.planning/phases/09-sharing-ui/09-04-PLAN.md', 3, 2, 1, 0, null, 'skip'],
  ['RondoHQ__rondo-club/.planning/phases/123-settings-backend-foundation/123-02-PLAN.md', 9, 0, 9, 0, true, 'loop'],
  ['RondoHQ__rondo-club/.planning/phases/71-dark-mode-fixes/71-FIX-PLAN.md', 3, 3, 0, 0, true, 'loop'],
  ['TheBlueMuzzy__roll-better/.planning/phases/05-core-game-logic/05-02-PLAN.md', 0, 0, 0, 0, null, 'skip'],
  // auto tasks have no <done>; verify names `npx tsc --noEmit`
  ['TheBlueMuzzy__roll-better/.planning/phases/17-dice-sync-simultaneous-play/17-04-PLAN.md', 4, 3, 0, 1, null, 'refuse'],
  ['VitalPointAI__Hopper/.planning/phases/01.5.2-dual-auth/01.5.2-04-PLAN.md', 4, 2, 0, 2, null, 'refuse'],
  ['VitalPointAI__Hopper/.planning/phases/04-execution-commands/04-01-FIX-FIX-FIX-FIX-FIX-FIX-FIX-PLAN.md', 1, 0, 1, 0, null, 'skip'],
  // trap: `<task type="...">` in the first task's action prose; 3 real tasks, "...: npm run compile"
  ['VitalPointAI__Hopper/.planning/phases/04-execution-commands/04-01-PLAN.md', 3, 3, 0, 0, null, 'skip'],
  // trap: two checkpoint <task> examples inside an xml fence in task 1's action; 3 real auto tasks
  ['VitalPointAI__Hopper/.planning/phases/04-execution-commands/04-02-PLAN.md', 3, 3, 0, 0, null, 'skip'],
  ['dougbarrett__gomcp/.planning/phases/02-controller-template-fixes/02-01-PLAN.md', 2, 2, 0, 0, null, 'skip'],
  // task 1: "BUG-CLOSURE.md exists" (a path); tasks 2, 3 prose
  ['dougbarrett__gomcp/.planning/phases/08-end-to-end-validation/08-03-PLAN.md', 3, 1, 2, 0, null, 'skip'],
  // duplicate frontmatter keys; task 3's <automated> is "MISSING — ..."
  ['hudsor01__tenant-flow/.planning/milestones/v1.0-phases/05-pricing-restructure/05-01-PLAN.md', 8, 5, 1, 2, false, 'refuse'],
  ['hudsor01__tenant-flow/.planning/milestones/v2.0-phases/04-charts/04-03-PLAN.md', 5, 2, 2, 1, false, 'refuse'],
  // <task type="tdd" tdd="true"> + 2 auto; plan type: tdd
  ['hudsor01__tenant-flow/.planning/phases/55-rent-ledger/55-03-PLAN.md', 3, 2, 1, 0, true, 'skip'],
  ['j-labbe__pretty-table-explorer/.planning/phases/07-column-controls/07-04-PLAN.md', 0, 0, 0, 0, null, 'skip'],
  // "cargo check passes" / "cargo build --release succeeds"
  ['j-labbe__pretty-table-explorer/.planning/phases/09-multiple-tables/09-03-FIX2-PLAN.md', 3, 3, 0, 0, null, 'skip'],
  ['j-labbe__pretty-table-explorer/.planning/phases/16-memory-optimization/16-01-PLAN.md', 2, 2, 0, 0, true, 'loop'],
  // UI walkthroughs ("Open AlbumGridScreen", ...) and a review: no commands
  ['jushyi__Flick/.planning/phases/08-user-albums/08-FIX6-PLAN.md', 4, 0, 3, 1, null, 'refuse'],
  ['jushyi__Flick/.planning/phases/50-cicd-pipeline/50-03-PLAN.md', 3, 0, 0, 3, null, 'refuse'],
  ['jushyi__Flick/.planning/phases/51-ios-release-preparation/51-04-PLAN.md', 3, 1, 0, 2, null, 'refuse'],
  ['msfstef__crossing-words/.planning/phases/07-check-reveal/07-03-PLAN.md', 4, 3, 0, 1, null, 'refuse'],
  // task 2: "curl POST to /puzzle returns data (or documents skip status)" is prose
  ['msfstef__crossing-words/.planning/phases/3.1-automatic-downloader-from-remote-sources-with-picker-for-source-and-day/3.1-01-PLAN.md', 3, 1, 1, 1, null, 'refuse'],
];

const files = planFiles(corpus).sort();
const plans = new Map<string, Plan>();
for (const f of files) plans.set(relative(corpus, f), decidePlan(parsePlanText(readPlanText(f), f, { resolves: DEV_MACHINE }), DEFAULT_CONFIG, {}));
const plan = (rel: string) => plans.get(rel)!;

describe('gsd-real corpus', () => {
  it('has the 53 plans of SOURCES.md, and a row for each', () => {
    expect(files).toHaveLength(53);
    expect(EXPECTED.map((r) => r[0]).sort()).toEqual([...plans.keys()].sort());
  });

  it.each(EXPECTED.map((r) => ({ file: r[0], row: r })))('$file', ({ file, row }) => {
    const p = plan(file);
    const count = (d: string) => p.tasks.filter((t) => t.decision === d).length;
    expect([file, p.tasks.length, count('loop'), count('skip'), count('refuse'), p.frontmatter.autonomous, p.plan_decision.decision]).toEqual(row);
    // Every task has a line, a specific reason, and numbers 1..N in order.
    expect(p.tasks.map((t) => t.number)).toEqual(p.tasks.map((_, i) => i + 1));
    for (const t of p.tasks) {
      expect(t.line).toBeGreaterThan(0);
      expect(t.end_line).toBeGreaterThanOrEqual(t.line);
      expect(t.reason.length).toBeGreaterThan(20);
      if (t.decision === 'loop') expect(t.checks.length).toBeGreaterThan(0);
    }
  });

  it('matches the STATS.md totals: 159 real tasks and their types', () => {
    const all = [...plans.values()].flatMap((p) => p.tasks);
    const types: Record<string, number> = {};
    for (const t of all) types[t.type ?? '(none)'] = (types[t.type ?? '(none)'] ?? 0) + 1;
    expect(all).toHaveLength(159);
    expect(types).toEqual({ auto: 106, 'checkpoint:human-verify': 10, 'checkpoint:human-action': 10, 'checkpoint:decision': 4, tdd: 2, '(none)': 27 });
    expect(all.filter((t) => t.tdd && t.type === 'auto')).toHaveLength(12);
    expect(all.filter((t) => t.tdd)).toHaveLength(14); // 13 tdd="true" + the type="tdd" task without the attribute
    const gates: Record<string, number> = {};
    for (const t of all) if (t.gate) gates[t.gate] = (gates[t.gate] ?? 0) + 1;
    expect(gates).toEqual({ blocking: 20, optional: 1, 'blocking-human': 1, 'autonomous-cross-audit': 1 });
    const sources: Record<string, number> = {};
    for (const p of plans.values()) sources[p.frontmatter_source] = (sources[p.frontmatter_source] ?? 0) + 1;
    expect(sources).toEqual({ yaml: 45, 'yaml-after-heading': 2, 'fenced-yaml': 2, none: 4 });
    const autonomous = [...plans.values()].map((p) => p.frontmatter.autonomous);
    expect([autonomous.filter((a) => a === true).length, autonomous.filter((a) => a === false).length, autonomous.filter((a) => a === null).length]).toEqual([22, 9, 22]);
    // Every checkpoint is refused; nothing else is.
    expect(all.filter((t) => t.decision === 'refuse').every((t) => t.type?.startsWith('checkpoint:'))).toBe(true);
    expect(all.filter((t) => t.decision === 'refuse')).toHaveLength(24);
  });

  it('warns about exactly the two checkpoint-in-autonomous-plan contradictions', () => {
    const contradicted = [...plans].filter(([, p]) => p.warnings.some((w) => w.startsWith('autonomous: true contradicts'))).map(([f]) => f);
    expect(contradicted.sort()).toEqual([
      '5teel__SOPstart/.planning/phases/13-reusable-block-library/13-02-PLAN.md',
      'FerroxLabs__wayland-core/.planning/phases/28-native-cross-platform-certification/28-03-PLAN.md',
    ]);
  });
});

describe('gsd-real traps, checked line by line', () => {
  it('Hopper 04-02: the xml-fenced checkpoint examples are text; the real tasks are at lines 52, 104, 168', () => {
    const p = plan('VitalPointAI__Hopper/.planning/phases/04-execution-commands/04-02-PLAN.md');
    expect(p.tasks.map((t) => [t.line, t.end_line, t.type])).toEqual([
      [52, 102, 'auto'],
      [104, 166, 'auto'],
      [168, 230, 'auto'],
    ]);
    expect(p.tasks[0]!.elements.action).toContain('<task type="checkpoint:decision" gate="blocking">');
  });

  it('Hopper 04-01: the prose `<task type="...">` does not cut the first task short', () => {
    const t = plan('VitalPointAI__Hopper/.planning/phases/04-execution-commands/04-01-PLAN.md').tasks[0]!;
    expect([t.line, t.end_line]).toEqual([58, 97]);
    expect(t.elements.verify).toBe('TypeScript compiles without errors: npm run compile');
    expect(t.checks).toEqual([{ kind: 'command_succeeds', command: 'npm run compile', source: { element: 'verify', line: 90 } }]);
  });

  it('tenant-flow 05-01: duplicate keys keep the last value; "returns 0" guards are not command_succeeds', () => {
    const p = plan('hudsor01__tenant-flow/.planning/milestones/v1.0-phases/05-pricing-restructure/05-01-PLAN.md');
    expect(p.warnings[0]).toMatch(/^line 40: duplicate frontmatter key/);
    const commands = p.tasks[3]!.checks.map((c) => ('command' in c ? c.command : ''));
    expect(commands).toContain("grep -F 'monthly: 19' src/config/pricing.ts");
    expect(commands.some((c) => c.includes('price_1RtWFc'))).toBe(false); // "... returns 0 (old Starter monthly ID gone)"
    expect(p.tasks[2]!.reason).toMatch(/<automated> is a placeholder/);
  });

  it('entities are decoded exactly once (raw && and &amp;&amp; in the same corpus)', () => {
    const abian = plan('AbianS__prisma-generate-uml/.planning/phases/01-foundation/01-02-PLAN.md').tasks[0]!.checks[0]!;
    expect('command' in abian && abian.command.startsWith('pnpm --filter webview-ui exec tsc --noEmit && grep -q')).toBe(true);
    const flow = plan('Atypical-Consulting__FlowForge/.planning/phases/26-xstate-navigation-fsm/26-01-PLAN.md').tasks[0]!;
    expect(flow.elements.action).toContain('dirtyBladeIds: Record<string, true>;');
    // The bash fence is one script (#13): both commands, as written, with their comments.
    expect(flow.checks.map((c) => ('command' in c ? c.command : ''))).toEqual([
      '# Run pure machine tests\nnpx vitest run src/machines/navigation/navigationMachine.test.ts\n\n# Type-check\nnpx tsc --noEmit 2>&1 | grep -v "bindings.ts"\n\n# All 21 test cases pass',
    ]);
  });

  it('klausbot 02-04: an indented </task> closes the only task; FlowForge 22-02 names come from title=""', () => {
    expect(plan('AdityaPawade__klausbot/.planning/phases/02-core-loop/02-04-PLAN.md').tasks.map((t) => [t.line, t.end_line])).toEqual([[41, 124]]);
    expect(plan('Atypical-Consulting__FlowForge/.planning/phases/22-new-content-blades/22-02-PLAN.md').tasks[0]!.name).toBe('Create useRepoFile hook');
  });

  it('metadata outside byte 0 and quoted/odd scalars', () => {
    expect(plan('Atypical-Consulting__FlowForge/.planning/phases/05-topology-visualization/05-02-PLAN.md').frontmatter).toMatchObject({ phase: '05', plan: '02', type: 'backend', depends_on: ['05-01'], autonomous: true });
    expect(plan('RondoHQ__rondo-club/.planning/phases/123-settings-backend-foundation/123-02-PLAN.md').frontmatter).toMatchObject({ wave: 2, depends_on: ['123-01'], autonomous: true });
    expect(plan('Arengard__navision_gdpdu/.planning/phases/04-data-parser/04-01-PLAN.md').frontmatter).toMatchObject({ phase: '04', plan: '01', type: 'implementation' });
    expect(plan('jushyi__Flick/.planning/phases/08-user-albums/08-FIX6-PLAN.md').frontmatter.plan).toBe('FIX6');
    expect(plan('5teel__SOPstart/.planning/phases/12.5-blueprint-redesign/12.5-02-PLAN.md').frontmatter).toMatchObject({ phase: '12.5-blueprint-redesign', plan: '02', autonomous: true });
  });

  it('the <human-check> of wayland 20A-04 is manual, never a command', () => {
    const t = plan('FerroxLabs__wayland-core/.planning/phases/20A-native-windows-macos-uat/20A-04-PLAN.md').tasks[3]!;
    expect(t.type).toBe('checkpoint:human-action');
    expect(t.checks).toEqual([]);
    expect(t.manual.length).toBeGreaterThan(0);
  });

  it('readPlan gives the same plan as parse + decide', () => {
    const f = join(corpus, 'dougbarrett__gomcp/.planning/phases/02-controller-template-fixes/02-01-PLAN.md');
    expect(readPlan(f, { config: DEFAULT_CONFIG, resolves: DEV_MACHINE, env: {} })).toEqual(plan(relative(corpus, f)));
  });
});

/**
 * Issue 13 (checks as written) re-read all 53 plans. On DEV_MACHINE no task decision and no plan
 * decision changed (159 tasks, 53 plans). What changed is the checks themselves, each row read by
 * hand in the plan: fences split into one-line checks are one script each now, and prose that only
 * names a long-running command is no longer run.
 */
describe('issue 13: checks whose reading changed, each with the reason', () => {
  type Changed = [file: string, scope: number | 'plan', commands: number, expectInFirst: string, why: string];
  // prettier-ignore
  const CHANGED: Changed[] = [
    ['Atypical-Consulting__FlowForge/.planning/phases/26-xstate-navigation-fsm/26-01-PLAN.md', 1, 1, 'npx vitest run src/machines/navigation/navigationMachine.test.ts\n', 'the bash fence (vitest, then tsc | grep -v) is one script, was 2 checks'],
    ['Atypical-Consulting__FlowForge/.planning/phases/05-topology-visualization/05-02-PLAN.md', 'plan', 1, 'cd src-tauri && cargo check 2>&1 | head -20\n', 'one fence, one script: the greps after `cd src-tauri &&` were 3 unrelated checks'],
    ['JesperMorais__LagomStronk/.planning/phases/02-ux-overhaul-exercise-system/02-10-PLAN.md', 'plan', 1, 'grep -q "workout-fullscreen" css/style.css', 'three `grep -q ... && echo` lines of one fence: one script'],
    ['MarkMichiels__livemathtex/.planning/phases/03-fix-evaluation-unit-lookup/03-01-PLAN.md', 'plan', 1, 'cd /home/mark/Repositories/livemathtex\npytest', 'the fence `cd` now governs the pytest runs after it (was a lone `cd` check)'],
    ['MarkMichiels__livemathtex/.planning/phases/23-remove-latex2sympy/23-01-PLAN.md', 'plan', 1, 'cd /home/mark/Repositories/livemathtex\npytest', 'same: one script; `pytest --collect-only | tail -5` gets a pipeline warning'],
    ['Birkankader__WhaleCode/.planning/phases/01-foundation/01-03-PLAN.md', 'plan', 2, 'npm run test -- --run', '"Manual smoke test: `npm run tauri dev` shows a window" is a person\'s step (a dev server that never exits), no longer a check'],
  ];
  it.each(CHANGED)('%s (%s)', (file, scope, commands, first, _why) => {
    const p = plan(file);
    const checks = (scope === 'plan' ? p.plan_checks : p.tasks[scope - 1]!.checks).filter((c) => c.kind === 'command_succeeds');
    expect(checks).toHaveLength(commands);
    expect('command' in checks[0]! && checks[0].command).toContain(first);
  });

  it('warns about the masking pipelines the plans contain (grep -v, head, tail)', () => {
    const warned = [...plans].filter(([, p]) => p.warnings.some((w) => /grep -v exits 0|returns (?:head|tail)'s status/.test(w))).map(([f]) => f.split('/')[0]);
    expect([...new Set(warned)].sort()).toEqual(['4everinbeta__liminal', 'Atypical-Consulting__FlowForge', 'Birkankader__WhaleCode', 'FerroxLabs__wayland-core', 'MarkMichiels__livemathtex', 'hudsor01__tenant-flow']);
  });
});
