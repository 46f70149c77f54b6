/** Python unittest: `FAIL: test_x (pkg.mod.Case.test_x)` / `ERROR: …`. */
import { type RunnerExtractor } from './contract.js';

export const unittest: RunnerExtractor = {
  name: 'unittest',
  header(t) {
    if (!t.startsWith('FAIL:') && !t.startsWith('ERROR:')) return null;
    return /^(?:FAIL|ERROR):\s+(\S+\s+\([^)]+\).*?)\s*$/.exec(t)?.[1] ?? null;
  },
};
