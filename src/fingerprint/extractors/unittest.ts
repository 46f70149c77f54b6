/** Python unittest: `FAIL: test_x (pkg.mod.Case.test_x)` / `ERROR: …`. */
import { type RunnerExtractor } from './contract.js';

export const unittest: RunnerExtractor = {
  name: 'unittest',
  header(t) {
    return /^(?:FAIL|ERROR):\s+(\S+\s+\([^)]+\).*?)\s*$/.exec(t)?.[1] ?? null;
  },
};
