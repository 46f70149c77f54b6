import { describe, expect, it } from 'vitest';
import { judgeCommand, parseFailsWhen, silentGreen } from '../../src/verify/judge.js';
import { oneShot } from '../../src/verify/one-shot.js';
import { pipelineWarnings, readGrepFiltersAsMeant } from '../../src/plan/pipelines.js';

const ok = (output: string, fails_when?: string) => judgeCommand({ command: 'x', exit_code: 0, exitOk: true, output, fails_when });

describe('<fails_when>', () => {
  it('parses quoted strings, regexes, non-zero exit and zero-test prose', () => {
    expect(parseFailsWhen('non-zero exit, or "0 passed" in the summary line').map((s) => s.kind)).toEqual(['text', 'nonzero_exit']);
    expect(parseFailsWhen('output matches /FAIL\\s+\\d+/').map((s) => s.kind)).toEqual(['pattern']);
    expect(parseFailsWhen('no tests ran').map((s) => s.kind)).toEqual(['no_tests']);
    expect(parseFailsWhen('0 tests collected').map((s) => s.kind)).toEqual(['no_tests']);
  });
  it('fails a green exit that shows the stated signal, and not a look-alike', () => {
    expect(ok('Ran 0 tests in 0.000s\n\nOK', '"Ran 0 tests"')).toMatchObject({ passed: false, reason: expect.stringContaining('Ran 0 tests') });
    expect(ok('10 passed in 1.2s', 'non-zero exit, or "0 passed" in the summary line')).toEqual({ passed: true });
    expect(ok('0 passed in 1.2s', 'non-zero exit, or "0 passed" in the summary line').passed).toBe(false);
    expect(ok('FAIL 3', 'matches /FAIL\\s+\\d+/').passed).toBe(false);
  });
  it('never turns a failing exit into a pass', () => {
    expect(judgeCommand({ command: 'x', exit_code: 1, exitOk: false, output: '5 passed', fails_when: 'non-zero exit' }).passed).toBe(false);
  });
});

describe('silent greens', () => {
  const silent: Array<[string, string]> = [
    ['unittest', 'Ran 0 tests in 0.000s\n\nOK'],
    ['pytest', 'collected 0 items\n\n==== no tests ran in 0.01s ===='],
    ['vitest', 'No test files found, exiting with code 0'],
    ['jest', 'No tests found, exiting with code 0'],
    ['mocha', '\n  0 passing (1ms)\n'],
    ['go', '?   \texample.com/a\t[no test files]'],
    ['cargo', 'running 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored'],
    ['node --test', '# tests 0\n# pass 0'],
  ];
  it.each(silent)('%s with no test is a failure', (_tool, output) => {
    expect(silentGreen(output)).not.toBeNull();
    expect(ok(output)).toMatchObject({ passed: false, reason: expect.stringContaining('ran no tests') });
  });
  const real: Array<[string, string]> = [
    ['pytest', 'collected 3 items\n\n3 passed in 0.1s'],
    ['cargo doc-tests with 0 beside real tests', 'running 4 tests\ntest result: ok. 4 passed\n\n   Doc-tests x\nrunning 0 tests\ntest result: ok. 0 passed'],
    ['go', 'ok  \texample.com/a\t0.01s\n?   \texample.com/b\t[no test files]'],
    ['build', 'compiled 12 files'],
  ];
  it.each(real)('%s is a pass', (_tool, output) => {
    expect(ok(output)).toEqual({ passed: true });
  });
});

describe('watch mode', () => {
  it('runs vitest and jest once, directly or through package.json scripts', () => {
    expect(oneShot('npx vitest', null)?.command).toBe('npx vitest run');
    expect(oneShot('vitest src/a.test.ts', null)?.command).toBe('vitest run src/a.test.ts');
    expect(oneShot('npx vitest run src/a.test.ts', null)).toBeNull();
    expect(oneShot('npx jest --watch', null)?.command).toBe('npx jest');
    expect(oneShot('npm test', { test: 'vitest' })).toMatchObject({ command: 'npm test -- --run', note: expect.stringContaining('watch mode off') });
    expect(oneShot('npm run test:unit && npm run lint', { 'test:unit': 'jest --watchAll', lint: 'eslint .' })?.command).toBe('npm run test:unit -- --watch=false --watchAll=false && npm run lint');
    expect(oneShot('npm test', { test: 'vitest run' })).toBeNull();
  });
});

describe('pipelines', () => {
  it('warns about grep -v, tee, head and || true at the end of a pipeline', () => {
    expect(pipelineWarnings('npx tsc --noEmit 2>&1 | grep -v "bindings.ts"')[0]).toMatch(/grep -v exits 0 when lines are LEFT/);
    expect(pipelineWarnings('npm test | tee log')[0]).toMatch(/tee/);
    expect(pipelineWarnings('cargo test 2>&1 | head -50')[0]).toMatch(/head/);
    expect(pipelineWarnings('npm test || true')[0]).toMatch(/verifies nothing/);
    expect(pipelineWarnings('grep -c x a | grep -q 3')).toEqual([]);
    expect(pipelineWarnings("python3 - <<'PY'\nprint('a | tee b')\nPY")).toEqual([]);
  });
  it('rewrites only whole-line grep -v pipelines', () => {
    expect(readGrepFiltersAsMeant('npm test')).toBeNull();
    const r = readGrepFiltersAsMeant('cd web\nnpx tsc 2>&1 | grep -v "bindings.ts"')!;
    expect(r.split('\n')[0]).toBe('cd web');
    expect(r).toContain('npx tsc 2>&1 | grep -v "bindings.ts"');
  });
});
