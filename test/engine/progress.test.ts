import { describe, expect, it } from 'vitest';
import { assessProgress, type ProgressInput } from '../../src/engine/progress.js';
import { check } from './helpers.js';

const it_ = (checks: ProgressInput['checks'], fingerprint: string | null, diff_hash: string | null = 'd'): ProgressInput => ({ checks, fingerprint, diff_hash });

describe('assessProgress', () => {
  const cases: Array<[string, ProgressInput, ProgressInput, boolean, string | RegExp]> = [
    ['a failing check now passes', it_([check(0, { fp: 'A' }), check(1, { fp: 'B' })], 'A'), it_([check(0), check(1, { fp: 'B' })], 'B'), true, 'check fixed: node check1.js'],
    [
      'fewer failing tests in a check that still fails',
      it_([check(0, { fp: 'A', tests: ['t1', 't2', 't3'] })], 'A'),
      it_([check(0, { fp: 'A', tests: ['t2'] })], 'A'),
      true,
      'fewer failing tests in node check1.js: 3 → 1',
    ],
    [
      'a changed error at the same check plus a newly failing check is not progress',
      it_([check(0, { fp: 'A' }), check(1, { skipped: true, passed: false })], 'A'),
      it_([check(0, { fp: 'A2' }), check(1, { fp: 'B' })], 'A2'),
      false,
      /^no progress/,
    ],
    [
      'stop_on_first_failure: the first failure moved to a check that was skipped before',
      it_([check(0, { fp: 'A' }), check(1, { skipped: true, passed: false })], 'A'),
      it_([check(0), check(1, { fp: 'B' })], 'B'),
      true,
      /downstream error: the first failure moved from check 1 to check 2/,
    ],
    ['downstream error at a later check', it_([check(0, { fp: 'A' }), check(1, { fp: 'B' })], 'A'), it_([check(0), check(1, { fp: 'B' })], 'B'), true, /downstream error: the first failure moved from check 1 to check 2/],
    ['the task files diff changed', it_([check(0, { fp: 'A' })], 'A', 'd1'), it_([check(0, { fp: 'A' })], 'A', 'd2'), true, /^code changed/],
    ['a diff that appears (null → hash) changed', it_([check(0, { fp: 'A' })], 'A', null), it_([check(0, { fp: 'A' })], 'A', 'd2'), true, /^code changed/],
    ['same failure, same diff', it_([check(0, { fp: 'A' })], 'A'), it_([check(0, { fp: 'A' })], 'A'), false, 'no progress: the same number of failing checks, the same error fingerprint, task files unchanged'],
    ['a different error at the same check is not downstream', it_([check(0, { fp: 'A' })], 'A'), it_([check(0, { fp: 'Z' })], 'Z'), false, /a different error that is not downstream/],
    ['an upstream error (earlier check) is not progress', it_([check(0), check(1, { fp: 'B' })], 'B'), it_([check(0, { fp: 'A' }), check(1, { fp: 'B' })], 'A'), false, /more failing checks \(1 → 2\)/],
    ['same test count, different tests: not progress', it_([check(0, { fp: 'A', tests: ['t1'] })], 'A'), it_([check(0, { fp: 'A', tests: ['t2'] })], 'A'), false, /^no progress/],
    ['unrecognised test output says nothing', it_([check(0, { fp: 'A', tests: ['t1', 't2'] })], 'A'), it_([check(0, { fp: 'A' })], 'A'), false, /^no progress/],
  ];

  it.each(cases)('%s', (_name, prev, cur, progress, reason) => {
    const r = assessProgress(prev, cur);
    expect(r.progress).toBe(progress);
    if (typeof reason === 'string') expect(r.reasons).toContain(reason);
    else expect(r.reasons.some((x) => reason.test(x))).toBe(true);
  });

  it('matches checks by command, not position', () => {
    const prev = it_([check(0, { fp: 'A', command: 'npm test' })], 'A');
    const cur = it_([check(0, { command: 'npm run lint' }), check(1, { command: 'npm test' })], null);
    expect(assessProgress(prev, cur).reasons).toContain('check fixed: npm test');
  });
});
