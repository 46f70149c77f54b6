/**
 * Line classes and wrapper lines by their general rules (the rules that replaced one pattern
 * per tool, issue 17): tallies are summaries by their counts, every "exited with code N" line is
 * a wrapper, JS/Rust frames are frames by `at … :line`, advice lines are no failure.
 */
import { describe, expect, it } from 'vitest';
import { classifyLine } from '../../src/fingerprint/noise.js';
import { errorScore, isWrapper, SCORE_WRAPPER } from '../../src/fingerprint/signals.js';
import { fingerprint } from '../../src/fingerprint/fingerprint.js';

describe('line classes by general rules', () => {
  it.each([
    '  2 passing (18ms)',
    '  1 pending',
    '  2 failing',
    '✖ 2 problems (2 errors, 0 warnings)',
    'test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s',
    '1 error and 2 warnings generated.',
    'Randomized with seed 1234',
  ])('a tally is a summary: %s', (line) => {
    expect(classifyLine(line)).toBe('summary');
  });

  it.each(['Running tests with seed 4242', 'Finished in 0.03546 seconds (files took 0.17103 seconds to load)'])('progress: %s', (line) => {
    expect(classifyLine(line)).toBe('progress');
  });

  it.each([
    'note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace',
    'Hint: make sure your test modules/packages have valid Python names.',
    'help: consider borrowing here: `&x`',
  ])('advice is no failure line: %s', (line) => {
    expect(classifyLine(line)).toBe('progress');
  });

  it.each(['    at foo (node:internal/x:12:3)', '    at node:internal/main:12:3', '    at file:///app/x.mjs:3:9', '             at ./src/main.rs:5:9'])(
    'a frame: %s',
    (line) => {
      expect(classifyLine(line)).toBe('frame');
    },
  );

  it.each(['- Expected  - 1', '+ Received  + 1', '- Expected:', '+ Received:'])('a diff legend is no value: %s', (line) => {
    expect(classifyLine(line)).toBe('progress');
  });

  it('a message that merely starts with `note` or counts after a word stays text', () => {
    expect(classifyLine('notes.txt: permission denied')).toBe('text');
    expect(classifyLine('build step 1 failed')).toBe('text');
  });
});

describe('wrappers: lines that only say a command above failed', () => {
  it.each([
    'error: Recipe `test` failed on line 5 with exit code 1',
    '##[error]Process completed with exit code 1.',
    'Error: Process completed with exit code 2.',
    'error Command failed with exit code 1.',
    "subprocess.CalledProcessError: Command '['make']' returned non-zero exit status 2.",
    'make: *** [Makefile:4: test] Error 1',
    'npm ERR! Exit status 1',
  ])('%s', (line) => {
    expect(isWrapper(line)).toBe(true);
    expect(errorScore(line)).toBe(SCORE_WRAPPER);
  });

  it('the error above a wrapper is the fingerprint, not the wrapper', () => {
    const out = ['Running checks', 'FAILED: ledger balance off by 100 cents', 'error: Recipe `test` failed on line 5 with exit code 1'].join('\n');
    expect(fingerprint(out).fingerprint).toBe('FAILED: ledger balance off by 100 cents');
  });
});
