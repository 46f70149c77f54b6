/**
 * node --test's spec reporter: `✖ name (7.1ms)`, always with its duration (a bare `✖ message`
 * is a linter's or a CLI's error line).
 */
import { cleanName, type RunnerExtractor } from './contract.js';

export const nodeTest: RunnerExtractor = {
  name: 'node-test',
  header(t) {
    if (!t.includes('✖')) return null;
    const m = /^\s*✖\s+(.+?\(\d+(?:\.\d+)?m?s\))\s*$/.exec(t);
    if (!m || /^failing tests:?$|^\d+ problems?\b/.test(m[1]!)) return null;
    return cleanName(m[1]!);
  },
};
