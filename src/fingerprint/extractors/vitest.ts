/** vitest: ` FAIL  test/a.test.ts > suite > name`, suite-level ` FAIL  test/a.test.ts [ test/a.test.ts ]`. */
import { basename } from '../normalize.js';
import { cleanName, type RunnerExtractor } from './contract.js';

export const vitest: RunnerExtractor = {
  name: 'vitest',
  header(t) {
    if (!t.includes('FAIL')) return null;
    const m = /^\s*FAIL\s+(\S+?)\s+>\s+(.+?)\s*$/.exec(t);
    if (m) return `${basename(m[1]!)} > ${cleanName(m[2]!)}`;
    const s = /^\s*FAIL\s+(\S+)\s+\[\s*\S+\s*\]\s*$/.exec(t);
    return s ? basename(s[1]!) : null;
  },
};
