/**
 * Shapes of plan text found while scoring the reader on unseen real plans (the plans are
 * not in the repository; every line here is written for the test). Precision first: a
 * server, a fill-in, or prose must never run; a command the author wrote must run as written.
 */
import { describe, expect, it } from 'vitest';
import { automatedCriteria, criteriaFromRange, type CriteriaMode } from '../../src/plan/criteria.js';
import { isLongRunning, looksLikeBareCommand, publishesOrDestroys } from '../../src/plan/command-like.js';
import { lineIndex } from '../../src/plan/lines.js';
import { planFromText } from '../../src/plan/read.js';
import { DEFAULT_CONFIG } from '../../src/config/schema.js';
import { DEV_MACHINE } from './machine.js';
import { judgeCommand } from '../../src/verify/judge.js';
import { runChecks } from '../../src/verify/run-checks.js';
import { tempDir } from '../helpers/cli.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function checksOf(text: string, mode: CriteriaMode = 'verify'): string[] {
  return criteriaFromRange(text, 0, text.length, { lines: lineIndex(text), element: 'verify', mode, resolves: DEV_MACHINE }).flatMap((c) =>
    c.checks.map((k) => (k.kind === 'command_succeeds' ? k.command : k.kind)),
  );
}
const auto = (text: string) => automatedCriteria(text, 0, text.length, { lines: lineIndex(text), element: 'automated', mode: 'verify', resolves: DEV_MACHINE });

describe('servers, watchers and local URLs are manual steps, not checks', () => {
  it('recognises a long-running process by the words after the program', () => {
    for (const cmd of ['npm run dev', 'pnpm dev', 'yarn start', 'npx vite preview', 'python manage.py runserver', 'npm run db:studio', 'npm run tauri dev', 'cd web && npm run start:dev && sleep 5 && curl -s localhost:4000', 'npx tsc --watch', 'npm run test:watch', 'npm run dev:web', 'curl http://localhost:3000/health', 'curl -s 127.0.0.1:8000/api | jq .']) {
      expect(isLongRunning(cmd), cmd).toBe(true);
    }
    for (const cmd of ['npm run build', 'docker build -t api-server:test .', 'cd dev && npm test', 'grep -q "start" src/a.ts', 'npm run dev > /tmp/log 2>&1 & sleep 3 && curl -s http://localhost:5173', 'docker compose up -d && sleep 5 && curl -s http://localhost:8080/ok', 'npm test 2>&1 | tail -5', 'DB_URL=postgres://localhost:5432/app pytest tests/', 'npm run build:server', 'pnpm run build:dev', 'npx some-backend dev --once']) {
      expect(isLongRunning(cmd), cmd).toBe(false);
    }
  });

  it('drops them from inline code, bare lines, <automated> and fences, and keeps the rest of the line', () => {
    expect(checksOf('- `npm run dev` starts without errors')).toEqual([]);
    expect(checksOf('npm run lint passes, npm run dev shows the home page')).toEqual(['npm run lint']);
    expect(checksOf('`curl -s http://localhost:3000/api/items` returns JSON')).toEqual([]);
    expect(auto('cd api && npm run start:dev && sleep 5 && curl -sf http://localhost:4000/docs').flatMap((c) => c.checks)).toEqual([]);
    expect(auto('cd api && npm run start:dev && sleep 5 && curl -sf http://localhost:4000/docs')[0]!.manual).toBe(true);
    expect(checksOf(['```bash', 'npm run build', 'npm run dev', '# open the page on a phone', '```'].join('\n'))).toEqual([]);
    expect(checksOf(['```bash', 'npm run build', 'npm run dev &', 'sleep 2 && curl -s http://localhost:5173 | grep -q root', '```'].join('\n'))).toHaveLength(1);
  });

  it('a task whose only check is a server is skipped, not looped', () => {
    const plan = ['---', 'phase: 01-web', 'plan: 01', 'type: execute', 'autonomous: true', '---', '<tasks>', '<task type="auto">', '  <name>Scaffold the app</name>', '  <action>Create the app.</action>', '  <verify>`pnpm dev` serves the start page</verify>', '  <done>The app runs.</done>', '</task>', '</tasks>'].join('\n');
    const p = planFromText(plan, 'PLAN.md', { config: DEFAULT_CONFIG, resolves: DEV_MACHINE, env: {} });
    expect(p.tasks[0]!.decision).toBe('skip');
  });
});

describe('one line, several sentences or clauses', () => {
  it('reads each sentence on its own: its commands and what it says about them', () => {
    expect(checksOf('python -c "import app.settings" succeeds (with API_KEY set). python -c "from app import main; print(main.NAME)" prints "demo".')).toEqual([
      'python -c "import app.settings"',
      'python -c "from app import main; print(main.NAME)"',
    ]);
    expect(checksOf('go build ./... succeeds. `node bin/cli.js --help` lists the new flag.')).toEqual(['go build ./...', 'node bin/cli.js --help']);
    expect(checksOf('- `grep "pnpm" NOTES.md` returns matches; `grep "yarn" NOTES.md` returns 0')).toEqual(['grep "pnpm" NOTES.md']);
  });

  it('does not split at `e.g.`, a build context ` .`, or a period inside quotes', () => {
    expect(checksOf('Run: docker build -t web-app:ci .')).toEqual(['docker build -t web-app:ci .']);
    expect(checksOf('`npm test` passes, e.g. for the parser. All green.')).toEqual(['npm test']);
    expect(checksOf('grep -q "v1. beta" CHANGELOG.md succeeds')).toEqual(['grep -q "v1. beta" CHANGELOG.md']);
  });

  it('among other sentences, a lone program name or an unqualified command in <done> is a mention', () => {
    expect(checksOf('Clients are created and wired. tsc passes.', 'done')).toEqual([]);
    expect(checksOf('`src/a_test.py` exists; pytest collects 4 tests', 'done')).toEqual([]);
    expect(checksOf('The module is added. `cargo test --doc` passes.', 'done')).toEqual(['cargo test --doc']);
  });

  it('clauses split only in <verify>, only where a program with arguments is said to pass', () => {
    expect(checksOf('Open the editor, set active layer, close the window')).toEqual([]);
    expect(checksOf('Manifest, cargo config, lint config in place', 'done')).toEqual([]);
    expect(checksOf('notes/main.py app.mount("/", Static(...)) is the last line in the file', 'done')).toEqual([]);
  });
});

describe('the command as written, without the prose around it', () => {
  it('keeps the words of the command and drops the success words after it', () => {
    expect(checksOf('npm install completes without errors', 'done')).toEqual(['npm install']);
    expect(checksOf('Deps installed. cargo fmt --check clean.', 'done')).toEqual(['cargo fmt --check']);
    expect(checksOf('`npx tsc --noEmit` still exits 0 (the config allows it)', 'done')).toEqual(['npx tsc --noEmit']);
    expect(checksOf('Config done, npm run check green', 'verify')).toEqual(['npm run check']);
  });

  it('a colon inside quoted text is not a label', () => {
    expect(checksOf('- .editorconfig contains "insert_final_newline": true', 'done')).toEqual([]);
  });

  it('a quoted argument spanning lines in <automated> stays in the script, whatever its lines read like', () => {
    const script = 'cd app && python -c "\nfrom app import registry\nassert registry.ok()\nprint(\'PASS: all categories excluded by the list\')\n"';
    expect(auto(script).flatMap((c) => c.checks.map((k) => (k.kind === 'command_succeeds' ? k.command : '')))).toEqual([script]);
  });
});

describe('<done> and acceptance lines that state the command succeeds', () => {
  it('accepts a line that is only the command, or says it finds something', () => {
    expect(checksOf("- `grep -q '\\[package\\]' Cargo.toml` (package table present)", 'done')).toEqual(["grep -q '\\[package\\]' Cargo.toml"]);
    expect(checksOf('- `grep -r "it.todo" src/a.test.ts` returns at least 3 lines', 'done')).toEqual(['grep -r "it.todo" src/a.test.ts']);
    expect(checksOf('- `grep -c "useAuth" src/app.tsx` returns >= 1', 'done')).toEqual(['grep -c "useAuth" src/app.tsx']);
    expect(checksOf('- `gradle-free-tool resolve` resolves all modules without errors', 'done')).toEqual([]);
    expect(checksOf('- `npm ci` completes without errors', 'done')).toEqual(['npm ci']);
  });

  it('still refuses expected failures: "failures", "returns 0", fence comments that expect nothing', () => {
    expect(checksOf('`npx vitest run` must show test failures from missing modules')).toEqual([]);
    expect(checksOf(['```bash', 'grep -r "legacy" src/  # must be empty', 'grep -n "init" src/main.py', '```'].join('\n'))).toEqual([]);
    expect(checksOf(['```bash', 'go test ./...', '# empty input exits 0 with no output', 'echo "" | go run ./cmd/x | wc -c', '```'].join('\n'))).toHaveLength(1);
  });

  it('a bare line reads every unquoted word, past the first command', () => {
    expect(looksLikeBareCommand('scripts/run.py main(app) is the entry point', DEV_MACHINE)).toBe(false);
    expect(looksLikeBareCommand('cat a.txt | wc -l', DEV_MACHINE)).toBe(true);
  });
});

describe('a command runs exactly as written, or not at all', () => {
  it('ends a bare command where what is said about it starts, outside quotes', () => {
    expect(checksOf('- grep "version = " config/app.toml matches \'version = "2"\'', 'done')).toEqual(['grep "version = " config/app.toml']);
    expect(checksOf('npx jest --ci passes all tests')).toEqual(['npx jest --ci']);
    expect(checksOf('cargo test --workspace succeeds. npx jest --ci passes all tests.')).toEqual(['cargo test --workspace', 'npx jest --ci']);
    expect(checksOf('go vet ./... exits 0 with no warnings', 'done')).toEqual(['go vet ./...']);
    // A quoted argument keeps its words: the verb is looked for outside quotes.
    expect(checksOf('grep -q "passes all" NOTES.md')).toEqual(['grep -q "passes all" NOTES.md']);
  });

  it('a line of clauses is read clause by clause, whatever the first clause says', () => {
    expect(checksOf('pnpm dev starts without errors, pnpm build completes successfully, types check')).toEqual(['pnpm build']);
    expect(checksOf('cargo doc opens in the browser, cargo test passes')).toEqual(['cargo test']);
  });

  it('does not cut a command short where the words after a success verb name something it left out', () => {
    expect(checksOf('- [ ] pip install completes for the new packages', 'done')).toEqual([]);
    expect(checksOf('npm run build works for both targets')).toEqual([]);
  });

  it('drops a label written before the command on an <automated> line, in any script', () => {
    const checks = (text: string) => auto(text).flatMap((c) => c.checks.map((k) => (k.kind === 'command_succeeds' ? k.command : '')));
    expect(checks('类型检查: npx tsc --noEmit -p web 2>&1 | head -20')).toEqual(['npx tsc --noEmit -p web 2>&1 | head -20']);
    expect(checks('Unit tests: cargo test -p core')).toEqual(['cargo test -p core']);
    // Not a label: quotes, a program before the colon, or no program after it.
    expect(checks('echo "status: ok" | grep -q ok')).toEqual(['echo "status: ok" | grep -q ok']);
    expect(checks('grep -c x: src/a.txt')).toEqual(['grep -c x: src/a.txt']);
    expect(checks('zig build test')).toEqual(['zig build test']);
  });
});

describe('a process that is started, not checked', () => {
  it('a script that ends by sending a command to the background only starts it', () => {
    for (const cmd of ['uv run uvicorn app.main:app --port 8000 &', 'cd api && PORT=9000 python serve.py &', 'npm run build && node dist/server.js &']) {
      expect(isLongRunning(cmd), cmd).toBe(true);
    }
    // Started in the background and then talked to or waited for: a script that checks something.
    for (const cmd of ['python serve.py & sleep 2 && curl -sf localhost:9000/ok', 'a.sh & b.sh & wait', 'uvicorn app:app --port 8000 &\nsleep 2\ncurl -sf http://127.0.0.1:8000/health']) {
      expect(isLongRunning(cmd), cmd).toBe(false);
    }
  });

  it('a command the author says starts, boots, listens or opens is a manual step, whatever its name', () => {
    expect(checksOf('2. `uv run uvicorn app.main:app --port 8000` starts without errors', 'done')).toEqual([]);
    expect(checksOf('- `python -m myapp.web` boots and listens on 8080')).toEqual([]);
    expect(checksOf('flask --app hello run --debug opens in the browser')).toEqual([]);
    // "starts with" is about its output.
    expect(checksOf('- `head -1 CHANGELOG.md` starts with "# Changelog"')).toEqual(['head -1 CHANGELOG.md']);
  });
});

describe('a statement, then the command that shows it', () => {
  it('runs the command that ends a line after a colon, when the line says something holds', () => {
    expect(checksOf('- `engines.node` is pinned: `grep -E \'"node": ">=20\' package.json`', 'done')).toEqual(['grep -E \'"node": ">=20\' package.json']);
    expect(checksOf('- History intact: `git log --oneline | grep -q "initial import"` (commit a1b2c3d)', 'done')).toEqual(['git log --oneline | grep -q "initial import"']);
    expect(checksOf('- `grep -E "^version" pyproject.toml` matches', 'done')).toEqual(['grep -E "^version" pyproject.toml']);
    expect(checksOf('- `grep -rn "TODO" src/` matches nothing', 'done')).toEqual([]);
    expect(checksOf('- `grep -rn "TODO" src/` matches none of the files', 'done')).toEqual([]);
  });

  it('not when the statement says something is gone, or names a step to take', () => {
    expect(checksOf('- Legacy client removed: `grep -rn "LegacyClient" src`', 'done')).toEqual([]);
    expect(checksOf('- Rollback: `git reset --hard HEAD~1`', 'done')).toEqual([]);
    expect(checksOf('- Install the tools: `pip install -r requirements-dev.txt`', 'done')).toEqual([]);
    expect(checksOf('- Config present: `cat app.toml` and compare it with the spec', 'done')).toEqual([]);
  });
});

describe('a script that prints how it went instead of failing', () => {
  const plan = (automated: string) =>
    ['---', 'phase: 02-api', 'plan: 01', 'type: execute', 'autonomous: true', '---', '<tasks>', '<task type="auto">', '  <name>Add the config module</name>', '  <action>Write it.</action>', `  <verify><automated>${automated}</automated></verify>`, '  <done>Done.</done>', '</task>', '</tasks>'].join('\n');
  const checkOf = (automated: string) => {
    const c = planFromText(plan(automated), 'PLAN.md', { config: DEFAULT_CONFIG, resolves: DEV_MACHINE, env: {} }).tasks[0]!.checks[0]!;
    if (c.kind !== 'command_succeeds') throw new Error(c.kind);
    return c;
  };
  const judged = (c: { command: string; fails_when?: string | undefined }, output: string) => judgeCommand({ command: c.command, exit_code: 0, exitOk: true, output, fails_when: c.fails_when }).passed;

  it('runs `cond && echo PASS || echo FAIL` as written and fails it when the fallback printed', () => {
    const c = checkOf('test -f app/config.py &amp;&amp; grep -q "class Settings" app/config.py &amp;&amp; echo "PASS" || echo "FAIL"');
    expect(c.command).toBe('test -f app/config.py && grep -q "class Settings" app/config.py && echo "PASS" || echo "FAIL"');
    expect(judged(c, 'FAIL\n')).toBe(false);
    expect(judged(c, 'PASS\n')).toBe(true);
    // A word of the output is not the fallback line: a passing run that names a failing case still passes.
    expect(judged(c, 'ok - should FAIL on a bad key\nPASS\n')).toBe(true);
  });

  it('through a real shell: fails until the file the script looks for exists, then passes', async () => {
    const c = checkOf('test -f app/config.py &amp;&amp; grep -q "class Settings" app/config.py &amp;&amp; echo "PASS" || echo "FAIL"');
    const cwd = tempDir('ralf-echo-fallback-');
    const run = async () => (await runChecks([c], { cwd, timeoutMs: 20_000, stopOnFirstFailure: false }))[0]!;
    const before = await run();
    expect([before.exit_code, before.passed]).toEqual([0, false]);
    mkdirSync(join(cwd, 'app'));
    writeFileSync(join(cwd, 'app', 'config.py'), 'class Settings:\n    pass\n');
    expect((await run()).passed).toBe(true);
  });

  it('reads the last fallback of a multi-line script, with its own text', () => {
    const c = checkOf('cd api\npython -c "import app" &amp;&amp; echo ok \\\n  || echo "IMPORT_FAILED: app"');
    expect(judged(c, 'IMPORT_FAILED: app\n')).toBe(false);
    expect(judged(c, 'ok\n')).toBe(true);
  });

  it('leaves alone a fallback that tolerates the failure, a script that fails on its own, and a <fails_when>', () => {
    expect(checkOf('npm run lint &amp;&amp; echo ok || echo "lint failed (non-blocking)"').fails_when).toBeUndefined();
    // One branch only: after `grep ... || echo X` the fallback may be the good outcome (nothing found).
    expect(checkOf('npx tsc --noEmit 2>&amp;1 | grep -E "src/legacy" || echo NO_ERRORS_IN_LEGACY').fails_when).toBeUndefined();
    expect(checkOf('grep -q x f || echo "FAIL"').fails_when).toBeUndefined();
    // A failure word said to be absent is the good outcome.
    expect(checkOf('npx tsc --noEmit &amp;&amp; echo checked || echo "NO_TYPE_ERRORS"').fails_when).toBeUndefined();
    expect(checkOf('grep -q x f || echo "skipped: no x"').fails_when).toBeUndefined();
    expect(checkOf('grep -q x f || { echo "FAIL"; exit 1; }').fails_when).toBeUndefined();
    expect(checkOf('grep -q x f || echo "FAIL"; exit 1').fails_when).toBeUndefined();
    const core = planFromText(plan('npm test || echo "FAIL"</automated><fails_when>"0 passed"</fails_when><automated>true').replace('<verify><automated>', '<verify><automated>'), 'PLAN.md', { config: DEFAULT_CONFIG, resolves: DEV_MACHINE, env: {} }).tasks[0]!.checks[0]!;
    expect(core.kind === 'command_succeeds' && core.fails_when).toBe('"0 passed"');
  });
});

describe('a long run of spaces after a command', () => {
  // Three `\s*` in a row backtracked cubically: 2.8 s for one 2,000-character line (bench/regex-stress.mjs);
  // this line took minutes, so without the fix the test times out.
  it('is read in linear time, and still is not a statement ending with its command', () => {
    expect(checksOf(`- \`engines.node\` is pinned: \`grep -q node package.json\`${' '.repeat(6000)}x`, 'done')).toEqual([]);
    expect(checksOf(`- \`engines.node\` is pinned: \`grep -q node package.json\`${' '.repeat(6000)}`, 'done')).toEqual(['grep -q node package.json']);
  });
});

describe('a command runs as the author wrote it, or not at all (third round)', () => {
  const taskPlan = (verify: string, done: string) =>
    ['---', 'phase: 03-store', 'plan: 02', 'type: execute', 'autonomous: true', '---', '<tasks>', '<task type="auto">', '  <name>Add the cart store</name>', '  <action>Write it.</action>', `  <verify>${verify}</verify>`, `  <done>${done}</done>`, '</task>', '</tasks>'].join('\n');
  const taskChecks = (verify: string, done: string) =>
    planFromText(taskPlan(verify, done), 'PLAN.md', { config: DEFAULT_CONFIG, resolves: DEV_MACHINE, env: {} }).tasks[0]!.checks.map((k) => (k.kind === 'command_succeeds' ? k.command : k.kind));

  it('a <done> that restates the verify check in shorthand runs only as the verify check', () => {
    // Without the runner word, or without the `cd` into a subdirectory, the shorthand is not the author's check.
    expect(taskChecks('<automated>npx tsc --noEmit &amp;&amp; echo "types ok"</automated>', '- `tsc --noEmit` passes')).toEqual(['npx tsc --noEmit && echo "types ok"']);
    expect(taskChecks('<automated>cd web &amp;&amp; npm test -- cart</automated>', '- `npm test -- cart` passes')).toEqual(['cd web && npm test -- cart']);
    // Written in full where the verify check runs it, it is the author's check too; with words of its own it is another check.
    expect(taskChecks('<automated>npm test 2>&amp;1 | tail -20</automated>', '- `npm test` exits 0')).toEqual(['npm test 2>&1 | tail -20', 'npm test']);
    expect(taskChecks('<automated>cd /home/dev/shop &amp;&amp; npm test</automated>', '- `npm test` exits 0')).toEqual(['cd /home/dev/shop && npm test', 'npm test']);
    expect(taskChecks('<automated>npx vitest run src/cart.test.ts</automated>', '- `npx vitest run` passes (whole suite)')).toEqual(['npx vitest run src/cart.test.ts', 'npx vitest run']);
  });

  it('a dash between spaces ends the command and starts what is said of it', () => {
    expect(checksOf('1. cargo test - every existing test still passes')).toEqual(['cargo test']);
    expect(checksOf('2. make lint — no new warnings')).toEqual(['make lint']);
    expect(checksOf('3. node bin/cli.js --help - lists the new flag')).toEqual(['node bin/cli.js --help']);
    // A lone `-` followed by file names is an argument (standard input), not a description.
    expect(checksOf('cat - notes.txt')).toEqual(['cat - notes.txt']);
  });

  it('a command in parentheses beside the check describes it; so does one another thing runs', () => {
    expect(checksOf('- `make verify` (runs `go vet` and `go test ./...`) is green', 'done')).toEqual(['make verify']);
    expect(checksOf('- `make verify` → PASS (lint plus the full `go test ./...`).')).toEqual(['make verify']);
    expect(checksOf('- The Makefile has a `seed` target that runs `go run ./cmd/seed -env dev`', 'done')).toEqual([]);
    expect(checksOf('- package.json has a script which calls `node scripts/gen.mjs`', 'done')).toEqual([]);
    // Alone in parentheses it is still the line's check.
    expect(checksOf('- Types are clean (`npx tsc --noEmit` exits 0)', 'done')).toEqual(['npx tsc --noEmit']);
  });

  it('a step that sets something up, an optional step and a manual checklist are not checks', () => {
    expect(checksOf('- Run `pnpm install` to install the test runner')).toEqual([]);
    expect(checksOf('- Run `npm test -- --run` to verify the suite executes')).toEqual(['npm test -- --run']);
    expect(checksOf('4. Optional: cargo run -- --config demo.yaml (after editing a source file) - reruns the checks')).toEqual([]);
    expect(checksOf('- Optionally run `npm run e2e` against staging')).toEqual([]);
    const checklist = ['Manual QA checklist:', '', '1. **Fresh install:**', '   - Build and run: `npx expo run:android`', '   - Open the settings tab', '', 'Automated:', '- `npm test` passes'].join('\n');
    expect(checksOf(checklist)).toEqual(['npm test']);
    // A shell fence under such a checklist is still a script the author wrote out to run.
    expect(checksOf(['Manual QA checklist:', '```bash', 'grep -q "cartTotal" src/store/cart.ts', '```'].join('\n'))).toEqual(['grep -q "cartTotal" src/store/cart.ts']);
  });

  it('a fence comment that expects no matches keeps the fence from running as a success check', () => {
    expect(checksOf(['```', 'npm test', 'grep -rn "console.log" src/', '# expected: zero matches', '```'].join('\n'))).toEqual([]);
  });

  it('a command the author runs in another directory, or whose quoted argument goes on over the next lines, is not run from here', () => {
    expect(checksOf('1. The library builds with `make` in lib/')).toEqual([]);
    expect(checksOf('2. The CLI builds with `cargo build --release` inside `cli/`.')).toEqual([]);
    expect(checksOf('- `npm test` passes in CI')).toEqual(['npm test']);
    expect(checksOf(['cd /srv/shop && python -c "', 'import shop', 'print(shop.VERSION)', '"'].join('\n'))).toEqual([]);
  });

  it('"no errors" after a command in <done> says it succeeds; a failure it expects still does not run', () => {
    expect(checksOf('All unit tests pass. `cargo check -p core` reports no errors.', 'done')).toEqual(['cargo check -p core']);
    expect(checksOf('- `npx eslint src` gives zero warnings', 'done')).toEqual(['npx eslint src']);
    expect(checksOf('- `npx vitest run` shows the new test failing', 'done')).toEqual([]);
  });

  it('a request with a value left to fill in ("...") is not run, nor a command with words left out', () => {
    expect(checksOf('- `cd app && ... test` behaves the same from the root')).toEqual([]);
    expect(checksOf('curl -X POST https://api.example.test/orders -d \'{"orderId": "..."}\'')).toEqual([]);
    expect(checksOf('curl -X POST https://api.example.test/orders -d \'{"orderId": "42"}\'')).toHaveLength(1);
  });
});

describe('round 4: what a line names but does not ask to run', () => {
  const planOf = (...task: string[]) =>
    planFromText(['---', 'phase: 02-api', 'plan: 01', 'type: execute', 'autonomous: true', '---', '<tasks>', ...task, '</tasks>'].join('\n'), 'PLAN.md', { config: DEFAULT_CONFIG, resolves: DEV_MACHINE, env: {} });
  const commands = (t: { checks: Array<{ kind: string; command?: string }> }) => t.checks.flatMap((k) => (k.kind === 'command_succeeds' ? [k.command!] : []));

  it('a command naming the state another command leaves is not run, on one line or wrapped onto the next', () => {
    expect(checksOf('- The formatter runs from the root and leaves `git status --short` empty', 'done')).toEqual([]);
    expect(checksOf(['The pre-commit hook runs successfully and leaves', '`git diff -- site/` clean (only line endings changed).'].join('\n'), 'done')).toEqual([]);
    // The same command said to succeed is still the line's check.
    expect(checksOf(['The build finishes and then', '`git diff --exit-code -- site/` exits 0.'].join('\n'), 'done')).toEqual(['git diff --exit-code -- site/']);
  });

  it('a filter given no input reads stdin, which a check does not have: a pattern named, not a command', () => {
    expect(checksOf('- `grep "plugin:default"` returns exactly one match', 'done')).toEqual([]);
    expect(checksOf('- `jq ".version"` prints 2.0.0', 'done')).toEqual([]);
    expect(checksOf('- `grep -c "plugin:default" config/caps.json` returns at least 1', 'done')).toEqual(['grep -c "plugin:default" config/caps.json']);
    expect(checksOf('- `grep -rn "plugin:default" config` returns matches', 'done')).toEqual(['grep -rn "plugin:default" config']);
    expect(checksOf('- `grep -e "plugin" -e "default" config/caps.json` matches', 'done')).toEqual(['grep -e "plugin" -e "default" config/caps.json']);
  });

  it('a search said to find no X expects no match: it does not run as a success check', () => {
    expect(checksOf('5. `grep -rn "from.*legacy/client" packages/app/src` — no importers (left unwired on purpose)')).toEqual([]);
    expect(checksOf('- `git grep -n "TODO(v1)"` finds none')).toEqual([]);
    expect(checksOf('- `grep -rn "createClient" packages/app/src` lists the two call sites')).toEqual(['grep -rn "createClient" packages/app/src']);
  });

  it('a <done> that restates a verify step run after an export (or source) restates it: no second check', () => {
    const p = planOf(
      '<task type="auto">',
      '  <name>Task 1: Build the lanes</name>',
      '  <action>Add the loader.</action>',
      '  <verify><automated>export PATH=$PATH:$HOME/sdk/go/bin && go build ./... && go test ./lanes/...</automated></verify>',
      '  <done>`go build ./...` passes.</done>',
      '</task>',
    );
    expect(commands(p.tasks[0]!)).toEqual(['export PATH=$PATH:$HOME/sdk/go/bin && go build ./... && go test ./lanes/...']);
  });

  it('a set-up step of the <action> that the <done> reports done is not run again as a check', () => {
    const p = planOf(
      '<task type="auto">',
      '  <name>Task 1: Add the CLI dependencies</name>',
      '  <action>Edit pyproject.toml, then run `uv lock && uv sync` to install the new dependencies.</action>',
      '  <verify><automated>uv run python -c "import typer"</automated></verify>',
      '  <done>pyproject.toml lists typer. `uv sync` succeeds.</done>',
      '</task>',
    );
    expect(commands(p.tasks[0]!)).toEqual(['uv run python -c "import typer"']);
    // Not a set-up step of this task: a check like any other.
    const q = planOf('<task type="auto">', '  <name>Task 1: Pin the lock file</name>', '  <action>Edit pyproject.toml.</action>', '  <done>`uv sync --locked` succeeds.</done>', '</task>');
    expect(commands(q.tasks[0]!)).toEqual(['uv sync --locked']);
  });
});

describe('round 4: a check the plan says fails now (TDD RED) is shown, not run', () => {
  const planOf = (...tasks: string[]) =>
    planFromText(['---', 'phase: 03-parser', 'plan: 01', 'type: execute', 'autonomous: true', '---', '<tasks>', ...tasks, '</tasks>', '<verification>', '- `pytest tests/test_parser.py -q` passes', '</verification>'].join('\n'), 'PLAN.md', { config: DEFAULT_CONFIG, resolves: DEV_MACHINE, env: {} });
  const red = (name: string, verify: string, done: string, extra = '') => ['<task type="auto" tdd="true">', `  <name>${name}</name>`, '  <action>Write tests/test_parser.py.</action>', `  <verify>${verify}</verify>`, extra, `  <done>${done}</done>`, '</task>'].join('\n');
  const green = ['<task type="auto" tdd="true">', '  <name>Task 2: GREEN — implement the parser</name>', '  <action>Implement parse().</action>', '  <verify><automated>pytest tests/test_parser.py -q</automated></verify>', '  <done>All parser tests pass.</done>', '</task>'].join('\n');

  it('a RED task: its test run is a manual criterion with a warning; the GREEN task runs the same command', () => {
    const p = planOf(red('Task 1: RED — pin the parser behaviour', '<automated>pytest tests/test_parser.py -q</automated>', 'The tests exist and fail on the missing module.'), green);
    expect(p.tasks[0]!.checks).toEqual([]);
    expect(p.tasks[0]!.decision).toBe('skip');
    expect(p.tasks[0]!.manual.join('\n')).toContain('expected to fail now, by the plan (not run as a check): pytest tests/test_parser.py -q');
    expect(p.warnings.some((w) => /task 1 \(line \d+\): the plan expects this check to fail now \(a TDD RED step\)/.test(w))).toBe(true);
    expect(p.tasks[1]!.checks.map((c) => (c.kind === 'command_succeeds' ? c.command : c.kind))).toEqual(['pytest tests/test_parser.py -q']);
    expect(p.plan_checks.map((c) => (c.kind === 'command_succeeds' ? c.command : c.kind))).toEqual(['pytest tests/test_parser.py -q']);
  });

  it('recognises RED from the name, a writing step for failing tests, the <done>, or a comment on the command', () => {
    const checksOfTask = (task: string) => planOf(task).tasks[0]!.checks;
    expect(checksOfTask(red('Task 1: Write failing parser tests', '<automated>pytest tests/test_parser.py -q</automated>', 'Nine tests written.'))).toEqual([]);
    expect(checksOfTask(red('Task 1: Parser tests', '<automated>pytest tests/test_parser.py -q</automated>', 'Nine RED tests collected, all failing on the import.'))).toEqual([]);
    expect(checksOfTask(red('Task 1: Parser tests', '<automated>cd tests && pytest test_parser.py -x 2>&1 | tail -20  # MUST FAIL (RED)</automated>', 'The test file exists.'))).toEqual([]);
    // The <done> names which command fails: other checks of the task still run.
    const named = planOf(red('Task 1: RED — parser tests', '<automated>ls tests/test_parser.py tests/conftest.py</automated>', '`pytest tests/test_parser.py` runs and reports 3 failing tests.'));
    expect(named.tasks[0]!.checks.map((c) => (c.kind === 'command_succeeds' ? c.command : c.kind))).toEqual(['ls tests/test_parser.py tests/conftest.py']);
  });

  it('is not fooled by tasks that fix failing tests, go on to GREEN, record failures, or may fail', () => {
    const run = (task: string) => planOf(task).tasks[0]!.checks.map((c) => (c.kind === 'command_succeeds' ? c.command : c.kind));
    expect(run(red('Task 1: Fix the failing parser tests', '<automated>pytest tests/test_parser.py -q</automated>', 'No test failures.'))).toEqual(['pytest tests/test_parser.py -q']);
    expect(run(red('Task 1: Parser validator — RED first', '<automated>pytest tests/test_parser.py -q</automated>', 'Bad input fails with a clear message; the tests are green.', '  <behavior>RED: the tests fail. GREEN: implement.</behavior>'))).toEqual(['pytest tests/test_parser.py -q']);
    expect(run(red('Task 1: Measure the suite', '<automated>pytest tests/ -q --co</automated>', 'Every failing test recorded by name.'))).toEqual(['pytest tests/ -q --co']);
    expect(run(red('Task 1: Test stubs', '<automated>pytest tests/ -q</automated>', 'The stubs load (the parser tests may fail until task 2).'))).toEqual(['pytest tests/ -q']);
  });

  it('a line saying, in a sentence of its own, that a test is RED: its command is expected to exit non-zero', () => {
    expect(checksOf('- `pytest tests/test_config.py` runs; the schema tests PASS; the "all tenants valid" test is RED (expected until plan 2).')).toEqual([]);
    expect(checksOf('- `pytest tests/test_config.py` runs. No test failures.', 'done')).toEqual(['pytest tests/test_config.py']);
  });
});

describe('round 4: a fence whose lines each cd from the root; quoted arguments', () => {
  it('a fence whose every line starts with its own cd into a relative directory is one check per line', () => {
    const fence = ['```bash', 'cd api && python -c "import app.models; print(1)"', 'cd web && npm run build', '```'].join('\n');
    expect(checksOf(fence)).toEqual(['cd api && python -c "import app.models; print(1)"', 'cd web && npm run build']);
    // Anything that carries from one line to the next keeps the fence one script (#13).
    expect(checksOf(['```bash', 'cd web', 'npm test', '```'].join('\n'))).toEqual(['cd web\nnpm test']);
    expect(checksOf(['```bash', 'cd api && npm ci', 'npm test', '```'].join('\n'))).toEqual(['cd api && npm ci\nnpm test']);
    expect(checksOf(['```bash', 'cd api && export MODE=ci', 'cd web && npm test', '```'].join('\n'))).toEqual(['cd api && export MODE=ci\ncd web && npm test']);
    expect(checksOf(['```bash', 'cd /srv/api && make test', 'cd /srv/web && make test', '```'].join('\n'))).toEqual(['cd /srv/api && make test\ncd /srv/web && make test']);
  });

  it('through a real shell: as one script the second cd fails; line by line both pass', async () => {
    const dir = tempDir('hp4-cd-fence-');
    mkdirSync(join(dir, 'api'));
    mkdirSync(join(dir, 'web'));
    writeFileSync(join(dir, 'api', 'ok.txt'), 'api\n');
    writeFileSync(join(dir, 'web', 'ok.txt'), 'web\n');
    const fence = ['```bash', 'cd api && grep -q api ok.txt', 'cd web && grep -q web ok.txt', '```'].join('\n');
    const checks = criteriaFromRange(fence, 0, fence.length, { lines: lineIndex(fence), element: 'verify', mode: 'verify', resolves: DEV_MACHINE }).flatMap((c) => c.checks);
    expect(checks).toHaveLength(2);
    const results = await runChecks(checks, { cwd: dir, timeoutMs: 10_000, stopOnFirstFailure: false });
    expect(results.map((r) => r.passed)).toEqual([true, true]);
    const joined = await runChecks([{ kind: 'command_succeeds', command: 'cd api && grep -q api ok.txt\ncd web && grep -q web ok.txt', source: { element: 'verify', line: 2 } }], { cwd: dir, timeoutMs: 10_000, stopOnFirstFailure: false });
    expect(joined[0]!.passed).toBe(false);
  });

  it('a quoted argument is the command\'s, not what the line says of it: `grep -E "passed|failed"` runs', () => {
    expect(checksOf('pytest tests/api/test_routes.py -v | grep -E "passed|failed|ERROR" | tail -1')).toEqual(['pytest tests/api/test_routes.py -v | grep -E "passed|failed|ERROR" | tail -1']);
    expect(checksOf('pytest tests/api/test_routes.py fails')).toEqual([]);
  });
});

describe('round 4, after scoring the fresh set: more text that names commands without asking to run them', () => {
  const planOf = (...task: string[]) =>
    planFromText(['---', 'phase: 04-ops', 'plan: 01', 'type: execute', 'autonomous: true', '---', '<tasks>', ...task, '</tasks>'].join('\n'), 'PLAN.md', { config: DEFAULT_CONFIG, resolves: DEV_MACHINE, env: {} });

  it('an <automated> line that is a label and then instructions for a person is not run, even with `;` in it', () => {
    expect(auto('MUTATION CHECK: record the digest of src/app.py; revert line 40 to the old call; re-run the gate; restore the file.').flatMap((c) => c.checks)).toEqual([]);
    // A label and then a command still runs the command.
    expect(auto('Typecheck: npx tsc --noEmit').flatMap((c) => c.checks.map((k) => ('command' in k ? k.command : '')))).toEqual(['npx tsc --noEmit']);
  });

  it('what a file contains or starts with, named in code, is not a command to run (and neither is the rest of the list)', () => {
    expect(checksOf('Both scripts start with `#!/bin/bash` and `set -e`. deploy.sh contains `git pull` and `systemctl restart app`.')).toEqual([]);
    expect(checksOf('- The Makefile has the line `go test ./...`, `go vet ./...`', 'done')).toEqual([]);
    // A command said to succeed on the same line still runs.
    expect(checksOf('deploy.sh contains `git pull`. `bash -n deploy.sh` exits 0.')).toEqual(['bash -n deploy.sh']);
  });

  it('a bare line whose words after the command are in another script (Chinese, Japanese, Korean) is prose', () => {
    expect(checksOf('- curl GET /api/items 返回 JSON 列表', 'done')).toEqual([]);
    expect(checksOf('- pytest tests/ -q 全部通过', 'done')).toEqual([]);
    // A label in that script before the command is still a label.
    expect(checksOf('类型检查: npx tsc --noEmit')).toEqual(['npx tsc --noEmit']);
  });

  it('a server started in the background and only waited for (sleep, echo) is started, not checked', () => {
    expect(isLongRunning('npm run dev -- --open & sleep 5 && echo "look at the settings tab"')).toBe(true);
    expect(isLongRunning('bun run dev & PID=$!; sleep 8; kill $PID; echo "dev started"')).toBe(true);
    expect(isLongRunning('npm run dev & sleep 5 && curl -sf http://localhost:5173/ | grep -q root')).toBe(false);
    expect(isLongRunning('a.sh & b.sh & wait')).toBe(false);
  });

  it('a count said to come to 0 (`→ 0`, `== 0`) expects no match', () => {
    expect(checksOf('- (`grep -c " as any" src/route.ts` → 0)', 'done')).toEqual([]);
    expect(checksOf('- `grep -rn "TODO" src` == 0')).toEqual([]);
    expect(checksOf('- `grep -c "export" src/route.ts` returns at least 1', 'done')).toEqual(['grep -c "export" src/route.ts']);
  });

  it('a <verify> nested in a <verify> is read: its <automated> is the task\'s check', () => {
    const p = planOf(
      '<task type="auto">',
      '  <name>Task 1: Container image</name>',
      '  <action>Write the Dockerfile.</action>',
      '  <verify>',
      '<verify>',
      '  <automated>cd api && docker build -t api:test .</automated>',
      '  <manual>The image builds without warnings</manual>',
      '</verify>',
      '  </verify>',
      '  <done>The image builds.</done>',
      '</task>',
    );
    expect(p.tasks[0]!.checks.map((c) => ('command' in c ? c.command : c.kind))).toEqual(['cd api && docker build -t api:test .']);
    expect(p.tasks[0]!.decision).toBe('loop');
  });
});

describe('round 5: what the author forbids or says destroys data, a line probing what it starts, and commands cut short', () => {
  it('a command the line forbids is not run (Do not, Never, must not, avoid)', () => {
    expect(checksOf('- Do not run `git reset --hard origin/main` on a shared branch', 'done')).toEqual([]);
    expect(checksOf("- Don't use `make clean-all` here: it removes the caches", 'done')).toEqual([]);
    expect(checksOf('Never point the tests at production: `DB=prod ./run-tests.sh` would wipe it.', 'done')).toEqual([]);
    // Only the sentence that forbids it: the next sentence's command is still a check.
    expect(checksOf('Never run `make deploy` from a laptop. `make check` passes.', 'done')).toEqual(['make check']);
  });

  it('what is forbidden ends at a comma; "to avoid X" is a purpose, not a ban', () => {
    expect(checksOf("Don't run the full suite here, `npx vitest run src/cart` is enough")).toEqual(['npx vitest run src/cart']);
    expect(checksOf('To avoid a long run, cap it: `./bin/fuzz -max_total_time=20 corpus/`')).toEqual(['./bin/fuzz -max_total_time=20 corpus/']);
    expect(checksOf('To avoid order-dependent failures, run: `pytest -p no:randomly tests/unit -q`')).toEqual(['pytest -p no:randomly tests/unit -q']);
    expect(checksOf('- Avoid running `make publish` from a branch', 'done')).toEqual([]);
  });

  it('a command whose clause says it clears only build output still runs; one that drops data does not', () => {
    expect(checksOf('`make clean all` (deletes out/ first, so the objects are fresh)')).toEqual(['make clean all']);
    expect(checksOf('- `npx prisma migrate reset --force` resets it (drops the schema) when a re-run is needed', 'done')).toEqual([]);
  });

  it('a command the line says drops, wipes or deletes data is not run, in an aside or after a dash', () => {
    expect(checksOf('- Clean slate: `make db-reset` (drops every table)', 'done')).toEqual([]);
    expect(checksOf('- `python scripts/purge.py --all` — deletes all uploads', 'done')).toEqual([]);
    // An aside that says something else keeps the check.
    expect(checksOf('- Schema valid: `npx prisma validate` (prisma 5)', 'done')).toEqual(['npx prisma validate']);
  });

  it('a command followed by a local URL the line then probes starts what it probes: manual', () => {
    expect(checksOf('- `make run-api` then GET http://127.0.0.1:9000/status returns ok', 'done')).toEqual([]);
    expect(checksOf('`go run ./cmd/web`, then open http://localhost:8081 in a browser')).toEqual([]);
    expect(checksOf('make run-api and visit localhost:9000/status')).toEqual([]);
  });

  it('a command a person runs to see or watch something is manual; "to see that it passes" is a check', () => {
    expect(checksOf('- Run one consumer pass to watch it drain the queue: `python -m app.consumer --once`')).toEqual([]);
    expect(checksOf('- Run a worker locally to see it process: `python -m app.worker --burst`', 'done')).toEqual([]);
    expect(checksOf('- Run `pytest tests/e2e -q` to see that the flow passes', 'done')).toEqual(['pytest tests/e2e -q']);
  });

  it('`report::` in a test filter keeps its colons before "passes"', () => {
    expect(checksOf('cargo test parser::tokens:: passes')).toEqual(['cargo test parser::tokens::']);
  });

  it('a program under a bin/ directory resolves like ./bin/x', () => {
    expect(checksOf('bin/setup --check && bin/test unit')).toEqual(['bin/setup --check && bin/test unit']);
    expect(checksOf('- `tools/bin/lint-all --strict` — no warnings')).toEqual(['tools/bin/lint-all --strict']);
  });

  it('"0 files failed", "no specs failed": a count of zero is not a failure the line expects', () => {
    expect(checksOf('| Lint | `npx eslint src` | 0 file(s) failed |')).toEqual(['npx eslint src']);
    expect(checksOf('- `npx jest` — no suites failed')).toEqual(['npx jest']);
    expect(checksOf('- `npx jest src/a` fails')).toEqual([]);
  });

  it('an aside saying what would fail the build is not a failure the line expects', () => {
    expect(checksOf('npx tsc -p tsconfig.build.json (type errors in generated code fail the build by design)')).toEqual(['npx tsc -p tsconfig.build.json']);
    expect(checksOf('- `make docs` (dead links fail the job)', 'done')).toEqual(['make docs']);
    expect(checksOf('- `make docs` fails on the dead link', 'done')).toEqual([]);
  });

  it('a <verify> line of clauses joined by "and" reads each clause; a clause said to report nothing is left to a person', () => {
    expect(checksOf('go test ./... passes and cargo test -p core succeeds')).toEqual(['go test ./...', 'cargo test -p core']);
    expect(checksOf('make build succeeds and go vet ./pkg/... reports nothing')).toEqual(['make build']);
    // "and" inside a quoted argument, or before words that are no program, is the clause's own.
    expect(checksOf('grep -q "rock and roll" notes.txt')).toEqual(['grep -q "rock and roll" notes.txt']);
  });

  it('a bare line whose words after the command are in another Latin-script language are not its arguments', () => {
    // Round 6: a success said in that language ends the command, which runs (it was prose in round 5).
    expect(checksOf('pytest tests/test_prix.py doit réussir', 'verify')).toEqual(['pytest tests/test_prix.py']);
    expect(checksOf('- cargo test --lib muss grün sein', 'done')).toEqual(['cargo test --lib']);
    expect(checksOf('pytest tests/test_prix.py puis ouvrir le rapport', 'verify')).toEqual([]);
    // A file name with such letters is an argument; so is a quoted one.
    expect(checksOf('python3 scripts/résumé.py --check')).toEqual(['python3 scripts/résumé.py --check']);
    expect(checksOf('grep -q "Größe" src/labels.txt')).toEqual(['grep -q "Größe" src/labels.txt']);
  });
});

describe('round 6: publishing and dropping commands, more long-running shapes, sessions and scripts written out of fences', () => {
  it('a command that publishes, pushes, deploys, or drops, deletes or resets data is the author\'s step, not a check', () => {
    for (const cmd of ['npm publish --access public', 'git push --force origin main', 'docker push ghcr.io/acme/api:1.4.0', 'cargo publish -p core', 'dotnet ef database drop --force', 'npx prisma migrate reset --force', 'npm run db:reset', 'mix ecto.drop', 'kubectl get ns -o name | xargs kubectl delete', 'git reset --hard origin/main']) {
      expect(publishesOrDestroys(cmd), cmd).toBe(true);
    }
    // A dry run only shows what it would do; a file or a one-shot script that merely has such a name runs.
    // Applying or upgrading infrastructure changes it as much: the plan (`terraform plan`, a dry run) is the check.
    for (const cmd of ['terraform apply -auto-approve', 'kubectl apply -f k8s/', 'helm upgrade --install api charts/api --wait']) {
      expect(publishesOrDestroys(cmd), cmd).toBe(true);
    }
    for (const cmd of ['terraform plan -detailed-exitcode', 'kubectl apply --dry-run=client -f k8s/', 'npm publish --dry-run', 'cargo publish -p core --dry-run', 'kubectl delete --dry-run=client -f job.yaml', 'cat deploy.yaml', 'pytest tests/test_delete.py', 'npm run build:deploy', './gradlew clean build', 'git push --dry-run origin main']) {
      expect(publishesOrDestroys(cmd), cmd).toBe(false);
    }
    // After a verifying subcommand the words are its arguments (a test filter, a package): it runs.
    for (const cmd of ['cargo test delete', 'cargo test reset_password', 'go vet ./internal/reset', 'dotnet test Api.Tests upload', 'npx nx test publish']) {
      expect(publishesOrDestroys(cmd), cmd).toBe(false);
    }
    expect(checksOf('`cargo test delete` passes')).toEqual(['cargo test delete']);
    // A dotted task name is read by its last name (`mix phx.server` serves); a file name is not a task.
    expect(isLongRunning('mix phx.server')).toBe(true);
    expect(isLongRunning('node server.js --port 0 --selftest')).toBe(false);
    expect(checksOf('- `npm publish --access public --provenance`')).toEqual([]);
    expect(checksOf('git push --force origin main --tags')).toEqual([]);
    expect(checksOf('`npm publish --dry-run` succeeds')).toEqual(['npm publish --dry-run']);
    expect(auto('docker push registry.example.com/app:1.2').flatMap((c) => c.checks)).toEqual([]);
    // What the same sentence does after such a step depends on it: not run either.
    expect(checksOf('`git reset --hard origin/main` then `npm test`')).toEqual([]);
  });

  it('a listener, a monitor, a queue consumer, services brought up attached, and a port-forward keep running', () => {
    for (const cmd of ['stripe listen --forward-to localhost:4000/webhooks', 'pio device monitor -b 115200', 'php bin/console messenger:consume async -vv', 'docker compose up --build', 'kubectl -n api port-forward svc/api 8080:80']) {
      expect(isLongRunning(cmd), cmd).toBe(true);
    }
    for (const cmd of ['docker compose up -d redis', 'docker compose up --wait', 'php bin/console messenger:stats']) {
      expect(isLongRunning(cmd), cmd).toBe(false);
    }
  });

  it('a program followed by a verb that goes on is a sentence about it, not a command with arguments', () => {
    expect(checksOf('- ctest reports 100% tests passed', 'done')).toEqual([]);
    expect(checksOf('- npm lists 3 packages', 'done')).toEqual([]);
  });

  it('an aside in parentheses before what is said of the command, and `=.` in a flag, end no command early', () => {
    expect(checksOf('pytest (all suites) passes')).toEqual(['pytest']);
    expect(checksOf('cargo test (workspace root) passes')).toEqual(['cargo test']);
    expect(checksOf('python3 -m venv --prompt=. .venv')).toEqual(['python3 -m venv --prompt=. .venv']);
  });

  it('a flag that names a failure is the command\'s own word, not a failure the line expects', () => {
    expect(checksOf('cargo test --no-fail-fast')).toEqual(['cargo test --no-fail-fast']);
    expect(checksOf('cargo test --no-fail-fast fails')).toEqual([]);
  });

  it('"runs without warnings" and a success said in Spanish, Portuguese, French, German or Italian end the command', () => {
    expect(checksOf('cargo doc --no-deps runs without warnings')).toEqual(['cargo doc --no-deps']);
    expect(checksOf('npx vitest run src/a.test.ts debe pasar sin errores')).toEqual(['npx vitest run src/a.test.ts']);
    expect(checksOf('npm run build compila sin advertencias')).toEqual(['npm run build']);
    expect(checksOf('- `npm run lint` sem erros', 'done')).toEqual(['npm run lint']);
    // Words of such a sentence that say no success are not arguments either.
    expect(checksOf('npm run build y luego abrir el navegador')).toEqual([]);
  });

  it('a shell session written out of a fence: the prompted command runs, what it printed does not', () => {
    expect(checksOf(['Run the tests; expected output:', '', '    $ go test ./pkg/limit -count=1', '    ok  \texample.com/pkg/limit\t0.004s', ''].join('\n'))).toEqual(['go test ./pkg/limit -count=1']);
    expect(checksOf(['$ cd api && cargo test --lib', '...', 'test result: ok. 4 passed; 0 failed', '', 'cargo fmt --check'].join('\n'))).toEqual(['cd api && cargo test --lib', 'cargo fmt --check']);
  });

  it('bare command lines in a row are one script when one carries state to the next, as in a fence', () => {
    expect(checksOf(['cd examples/consumer', 'cmake -S . -B build', 'cmake --build build', './build/consumer'].join('\n'))).toEqual(['cd examples/consumer\ncmake -S . -B build\ncmake --build build\n./build/consumer']);
    expect(checksOf(['export RUST_LOG=debug', 'cargo test'].join('\n'))).toEqual(['export RUST_LOG=debug\ncargo test']);
    // Lines that each stand alone stay checks of their own.
    expect(checksOf(['npm test -- --ci', 'npm run typecheck'].join('\n'))).toEqual(['npm test -- --ci', 'npm run typecheck']);
  });

  it('a count said to come to a number, and a listing said to no longer show something, are not checks', () => {
    // `wc -l` exits 0 whatever it counts; the count is what the author reads.
    expect(checksOf('git log --oneline main..HEAD | wc -l prints 1')).toEqual([]);
    expect(checksOf('- `ls migrations | wc -l` returns 12', 'done')).toEqual([]);
    expect(checksOf('test "$(git log --oneline | wc -l)" -ge 1')).toEqual(['test "$(git log --oneline | wc -l)" -ge 1']);
    // A listing said to no longer show something expects its absence, which its status does not say.
    expect(checksOf('`docker ps -a` no longer lists the old container')).toEqual([]);
  });

  it('a path among a span\'s words makes it code, not an English sentence', () => {
    expect(checksOf('`git show HEAD:src/a.ts` works')).toEqual(['git show HEAD:src/a.ts']);
  });
});

describe('a check whose program is not installed here', () => {
  const task = (verify: string) => `---\nphase: 01-x\nplan: 01\ntype: execute\nautonomous: true\n---\n<tasks>\n<task type="auto">\n<name>Task 1: x</name>\n<files>lib/x.ex</files>\n<action>x</action>\n<verify>${verify}</verify>\n<done>ok</done>\n</task>\n</tasks>\n`;
  const read = (verify: string) => planFromText(task(verify), 'PLAN.md', { config: DEFAULT_CONFIG, resolves: DEV_MACHINE, env: {} }).tasks[0]!;

  it('is a manual criterion, and the skip reason names the program to install', () => {
    const t = read('`mix test test/app/delete_test.exs`');
    expect(t.decision).toBe('skip');
    expect(t.reason).toContain('`mix` (`mix test test/app/delete_test.exs`) is not installed here (not on PATH or in node_modules/.bin)');
    expect(t.reason).toContain('install it and run ralf again');
  });

  it('names nothing for prose, a path, or a step that would not run installed either', () => {
    for (const verify of ['`useState` is called once', '`lib/x.ex` exists and is tidy', 'manually open the app', '`mix phx.server` then open the page', '`fly deploy --remote-only`']) {
      const t = read(verify);
      expect(t.decision, verify).toBe('skip');
      expect(t.reason, verify).not.toContain('not installed here');
    }
  });
});
