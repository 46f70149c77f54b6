import { describe, expect, it } from 'vitest';
import { automatedCriteria, criteriaFromRange, type CriteriaMode } from '../../src/plan/criteria.js';
import { lineIndex } from '../../src/plan/lines.js';
import { DEV_MACHINE } from './machine.js';
import { looksLikeBareCommand, looksLikeCodeCommand, looksLikeExplicitCommand } from '../../src/plan/command-like.js';

function criteria(text: string, mode: CriteriaMode = 'verify') {
  return criteriaFromRange(text, 0, text.length, { lines: lineIndex(text), element: 'verify', mode, resolves: DEV_MACHINE });
}

/** The executable checks of one line, as short strings. */
function checksOf(line: string, mode: CriteriaMode = 'verify'): string[] {
  return criteria(line, mode).flatMap((c) =>
    c.checks.map((k) => (k.kind === 'command_succeeds' ? `cmd:${k.command}` : k.kind === 'file_exists' ? `file:${k.path}` : k.kind === 'contains_text' ? `text:${k.path}:${k.text}` : k.kind)),
  );
}

describe('commands in <verify> lines', () => {
  const cases: Array<[string, string[]]> = [
    ['`npm test`', ['cmd:npm test']],
    ['Build succeeds: `npm run build`', ['cmd:npm run build']],
    ['- [ ] `npx tsc --noEmit` exits 0', ['cmd:npx tsc --noEmit']],
    ['`cd frontend &amp;&amp; npm test -- --run offlineQueue` exits 0', ['cmd:cd frontend && npm test -- --run offlineQueue']],
    ['Run tests: `npx playwright test e2e/a.spec.ts --reporter=line`', ['cmd:npx playwright test e2e/a.spec.ts --reporter=line']],
    // Not commands: paths, identifiers, JS, templates, placeholders.
    ['`src/foo.ts` is updated', []],
    ['Uses `useState` and `src/hooks/useX.ts`', []],
    ["`import('./x.js').then(m => m.f())` logs a function", []],
    ['`curl https://proxy.<account>.workers.dev/puzzle` returns data', []],
    ['`bun run test:unit -- --run {file}` exits 0', []],
    ['`vitest` is installed', []],
    // Failure expectations are not command_succeeds.
    ['`npm test` fails (RED phase)', []],
    ['`grep -cF old src/a.ts` returns 0 (old ID gone)', []],
    ['`ls src/old/` should fail', []],
    ['`npx tsc 2>&1 | grep "Cannot find module"` returns nothing', []],
    ['`grep -n "export function X" src/a.ts` matches ZERO lines', []],
    // Positive output expectations still run the command (the line stays manual too).
    ['`grep -c x src/a.ts` returns exactly 1 match', ['cmd:grep -c x src/a.ts']],
    ['`npm test` passes with no failing tests', ['cmd:npm test']],
  ];
  it.each(cases)('%s', (line, expected) => {
    expect(checksOf(line)).toEqual(expected);
  });
});

describe('bare command lines (no backticks)', () => {
  const cases: Array<[string, string[]]> = [
    ['cargo check passes', ['cmd:cargo check']],
    ['cargo build --release succeeds', ['cmd:cargo build --release']],
    ['TypeScript compiles without errors: npm run compile', ['cmd:npm run compile']],
    ['node -e "import(\'./src/utils/hash.js\').then(m => console.log(typeof m.hashFile))"', ['cmd:node -e "import(\'./src/utils/hash.js\').then(m => console.log(typeof m.hashFile))"']],
    ['ls src/a.tsx src/b.tsx all exist', ['cmd:ls src/a.tsx src/b.tsx']],
    ['grep -c "A\\|B" src/types.ts shows 3+ matches', ['cmd:grep -c "A\\|B" src/types.ts']],
    ['pytest tests/ -v shows 102+ tests passing', ['cmd:pytest tests/ -v']],
    ['pytest tests/test_x.py -v shows tests FAILING (red phase)', []],
    ['Build succeeds with new parser source', []],
    ['make sure the build passes', []],
    ['test the login flow manually', []],
    ['go to /settings and check the page', []],
    ['curl POST to /puzzle returns data', []],
    ['Navigate to /workspaces in browser, verify page loads', []],
  ];
  it.each(cases)('%s', (line, expected) => {
    expect(checksOf(line)).toEqual(expected);
  });
});

describe('file forms', () => {
  const cases: Array<[string, string[]]> = [
    ['- css/library.css exists', ['file:css/library.css']],
    ['`src/components/ui/Pill.tsx` is created', ['file:src/components/ui/Pill.tsx']],
    ['frontend/lib/store.ts contains `isOnline: boolean`', ['text:frontend/lib/store.ts:isOnline: boolean']],
    ['File `src/a.ts` contains "export const A"', ['text:src/a.ts:export const A']],
    // A bare file name could be anywhere; paths outside the project are not read.
    ['OfflineBanner.tsx contains `AnimatePresence`', []],
    ['`../../etc/passwd` exists', []],
    ['`/etc/hosts` exists', []],
    ['`~/.ssh/id_rsa` contains `KEY`', []],
  ];
  it.each(cases)('%s', (line, expected) => {
    expect(checksOf(line)).toEqual(expected);
  });
});

describe('<done> lines need a run/success word before a backticked command counts', () => {
  it('accepts "`npx tsc --noEmit` clean" but not a mention', () => {
    expect(checksOf('`npx tsc --noEmit` clean', 'done')).toEqual(['cmd:npx tsc --noEmit']);
    expect(checksOf('Added a `npm run seed` script to package.json', 'done')).toEqual([]);
  });
});

describe('fenced shell blocks', () => {
  it('runs each shell fence as ONE script as written; console fences lose prompts and output; other languages are not run', () => {
    const text = ['```bash', '# Run the tests', 'npx vitest run src/a.test.ts', '', 'npx tsc --noEmit 2>&1 | \\', '  grep -v bindings', '```', '```typescript', 'npm test', '```', '```console', '$ make check', 'ok', '$ cd web &&', '> npm test', '```'].join('\n');
    expect(criteria(text).map((c) => [c.text, c.source.line])).toEqual([
      ['# Run the tests\nnpx vitest run src/a.test.ts\n\nnpx tsc --noEmit 2>&1 | \\\n  grep -v bindings', 2],
      ['make check\ncd web &&\nnpm test', 12],
    ]);
  });

  it('keeps heredocs, cd, export and functions together (the body is never a criterion of its own)', () => {
    const text = ['```sh', 'cd web', 'export MODE=strict', "python3 - <<'PY'", 'import app', 'assert app.VALUE == 42', 'PY', 'check() { test -f "$1"; }', 'check ok.sh', '```'].join('\n');
    const [c, ...rest] = criteria(text);
    expect(rest).toEqual([]);
    expect(c!.checks).toEqual([{ kind: 'command_succeeds', command: text.split('\n').slice(1, -1).join('\n'), source: { element: 'verify', line: 2 } }]);
    expect(c!.manual).toBe(false);
  });

  it('an unlabeled fence is a script only when every line is a command', () => {
    expect(checksOf(['```', 'npm test', 'make lint', '```'].join('\n'))).toEqual(['cmd:npm test\nmake lint']);
    expect(checksOf(['```', 'npm test', 'Expected: all green', '```'].join('\n'))).toEqual([]);
    expect(checksOf(['```', '{ "a": 1 }', '```'].join('\n'))).toEqual([]);
  });

  it('a fence pasted from a terminal (its first line has a `$ ` prompt) is a session: prompted commands run, what they printed does not', () => {
    expect(checksOf(['```', '$ node count.mjs --json fixtures/three.txt', '{"lines":3}', '```'].join('\n'))).toEqual(['cmd:node count.mjs --json fixtures/three.txt']);
    expect(checksOf(['```bash', '$ make check', 'ok: 12 passed', '$ make lint', '```'].join('\n'))).toEqual(['cmd:make check\nmake lint']);
    // Without a prompt on its first line a fence is no session: its lines are read as a script.
    expect(checksOf(['```', 'npm test', '$ make lint', '```'].join('\n'))).toEqual([]);
  });
});

describe('named prose', () => {
  it('records tests_pass / no_type_errors / lint_clean without a command', () => {
    const [c] = criteria('All tests pass and there are no type errors.');
    expect(c!.checks).toEqual([]);
    expect(c!.named).toEqual(['tests_pass', 'no_type_errors']);
    expect(c!.manual).toBe(false);
    expect(criteria('Lint clean')[0]!.named).toEqual(['lint_clean']);
    expect(criteria('tests FAIL before the fix')[0]!.named).toEqual([]);
  });
});

describe('<automated>', () => {
  const auto = (text: string) => automatedCriteria(text, 0, text.length, { lines: lineIndex(text), element: 'automated', mode: 'verify' });
  it('runs its content, decoded once, and flags placeholders', () => {
    expect(auto('pnpm exec tsc --noEmit &amp;&amp; grep -q "memo(" src/a.tsx')[0]!.checks).toEqual([
      { kind: 'command_succeeds', command: 'pnpm exec tsc --noEmit && grep -q "memo(" src/a.tsx', source: { element: 'automated', line: 1 } },
    ]);
    const missing = auto('MISSING — Wave 0 must create the tests first');
    expect(missing[0]!.placeholder).toBe(true);
    expect(missing[0]!.checks).toEqual([]);
    expect(auto('godot --headless --script check.gd')[0]!.checks).toHaveLength(1);
    expect(auto('Open the app and check the banner')[0]!.checks).toEqual([]);
  });
  it('runs a multi-line <automated> as one script, from its first line', () => {
    expect(auto('\n  cd app &&\n  npm test\n')[0]!.checks[0]).toMatchObject({ command: 'cd app &&\n  npm test', source: { line: 2 } });
    const heredoc = "python3 - <<'PY'\nimport app\nassert app.VALUE == 42\nPY";
    expect(auto(heredoc).flatMap((c) => c.checks)).toEqual([{ kind: 'command_succeeds', command: heredoc, source: { element: 'automated', line: 1 } }]);
  });
  it('runs programs that are on no list and not installed: the check fails with its own "command not found"', () => {
    for (const cmd of ['zig build test', 'shellcheck scripts/*.sh', 'nix flake check', 'buf lint', 'hadolint Dockerfile', 'actionlint', 'sqlfluff lint models/', 'false', 'sleep 1; false', '[ -f x ]', 'hyperfine "npm run bench"']) {
      expect(auto(cmd).flatMap((c) => c.checks).map((k) => (k.kind === 'command_succeeds' ? k.command : k.kind))).toEqual([cmd]);
    }
  });
  it('a backticked span is a check whether or not its program resolves; a sentence line is a criterion', () => {
    expect(auto('`zig build test` passes').flatMap((c) => c.checks.map((k) => (k.kind === 'command_succeeds' ? k.command : '')))).toEqual(['zig build test']);
    const mixed = auto('npm test\nAll 21 tests should pass');
    expect(mixed.flatMap((c) => c.checks.map((k) => (k.kind === 'command_succeeds' ? k.command : '')))).toEqual(['npm test']);
    expect(mixed.some((c) => c.manual || c.named.length > 0)).toBe(true);
  });
});

describe('looksLike*', () => {
  it('separates commands from prose and identifiers', () => {
    expect(looksLikeCodeCommand('./gradlew test', DEV_MACHINE)).toBe(true);
    expect(looksLikeCodeCommand('./scripts/check.sh', DEV_MACHINE)).toBe(true);
    expect(looksLikeCodeCommand('/usr/bin/grep -c x f', DEV_MACHINE)).toBe(true);
    expect(looksLikeCodeCommand('../../etc/passwd', DEV_MACHINE)).toBe(false);
    expect(looksLikeCodeCommand('/api/chat', DEV_MACHINE)).toBe(false);
    expect(looksLikeCodeCommand('test', DEV_MACHINE)).toBe(false);
    expect(looksLikeCodeCommand('test -f src/a.ts', DEV_MACHINE)).toBe(true);
    expect(looksLikeCodeCommand('FOO=1 npm test', DEV_MACHINE)).toBe(true);
    expect(looksLikeBareCommand('make sure', DEV_MACHINE)).toBe(false);
    expect(looksLikeBareCommand('make build', DEV_MACHINE)).toBe(true);
    expect(looksLikeExplicitCommand('TBD')).toBe(false);
    expect(looksLikeExplicitCommand('SHA=$(git rev-parse HEAD); test -n "$SHA"')).toBe(true);
  });

  it('takes shell compound commands for commands, and sentences starting with their keywords for prose', () => {
    for (const cmd of [
      'if [ -f dist/index.js ]; then echo ok; else exit 1; fi',
      'for f in src/*.ts; do node --check "$f"; done',
      'while ! curl -sf localhost:3000/health; do sleep 1; done',
      'case "$(uname)" in Linux) make test;; *) exit 1;; esac',
    ]) {
      expect(looksLikeCodeCommand(cmd, DEV_MACHINE)).toBe(true);
      expect(looksLikeExplicitCommand(cmd)).toBe(true);
    }
    for (const prose of ['if the build fails, fix it', 'for each route, check the status', 'while the server runs; do nothing else', 'case studies in the docs']) {
      expect(looksLikeCodeCommand(prose, DEV_MACHINE)).toBe(false);
      expect(looksLikeBareCommand(prose, DEV_MACHINE)).toBe(false);
    }
  });
});
