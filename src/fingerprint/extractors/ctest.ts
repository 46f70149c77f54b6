/** CTest: `2/3 Test #2: ring_wrap ........***Failed    0.00 sec` (with --output-on-failure its output follows). */
import { type RunnerExtractor } from './contract.js';

export const ctest: RunnerExtractor = {
  name: 'ctest',
  header(t) {
    if (!t.includes('***')) return null;
    return /^\s*\d+\/\d+\s+Test\s+#\d+:\s+(\S+)\s+\.*\s*\*{3}(?:Failed|Exception|Timeout|Not Run)\b/.exec(t)?.[1] ?? null;
  },
};
