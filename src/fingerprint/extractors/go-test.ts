/**
 * go test: `--- FAIL: TestName (0.00s)` (subtests indented). With -v a test's log lines come
 * BEFORE its `--- FAIL:` line, after `=== RUN   TestName`.
 */
import { type RunnerExtractor } from './contract.js';

const GO_RUN = /^\s*=== (?:RUN|CONT)\s+(\S+)/;
const MAX_BACK = 150;

export const goTest: RunnerExtractor = {
  name: 'go-test',
  header(t) {
    if (!t.includes('--- FAIL')) return null;
    return /^\s*--- FAIL:\s+(\S+)/.exec(t)?.[1] ?? null;
  },
  errorBefore(lines, header, name) {
    const base = name.replace(/\s.*$/, '');
    let run = header - 1;
    while (run >= 0 && header - run < MAX_BACK && GO_RUN.exec(lines[run]!.text)?.[1] !== base) run--;
    if (run < 0 || header - run >= MAX_BACK) return null;
    let stop = run + 1;
    while (stop < header && !GO_RUN.test(lines[stop]!.text) && !/^\s*--- (?:FAIL|PASS|SKIP):/.test(lines[stop]!.text)) stop++;
    return { from: run + 1, to: stop };
  },
};
