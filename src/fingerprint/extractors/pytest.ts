/**
 * pytest: `____ test_name ____` (and `____ ERROR collecting tests/x.py ____`) opens a block
 * whose first `E   ` line is the assertion or exception; the short summary marks
 * `FAILED tests/x.py::test_y - msg` / `ERROR tests/x.py`.
 */
import { type RunnerExtractor } from './contract.js';

export const pytest: RunnerExtractor = {
  name: 'pytest',
  header(t) {
    if (!t.startsWith('___')) return null;
    const m = /^_{3,}\s+(.+?)\s+_{3,}$/.exec(t);
    return m ? m[1]!.replace(/(?<!\S)\S*\/(\S+)/g, '$1') : null;
  },
  marker(t) {
    return /^(?:FAILED|ERROR)\s+(\S+?)(?:\s+-\s.*)?$/.exec(t)?.[1] ?? null;
  },
  firstError(lines, from, to) {
    for (let j = from; j < to; j++) {
      const m = /^E\s+(\S.*)$/.exec(lines[j]!.text);
      if (m) return { index: j, text: m[1]! };
    }
    return null;
  },
};
