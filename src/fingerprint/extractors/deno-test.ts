/** deno test's failure list: `name => ./file_test.ts:7:6`. */
import { cleanName, type RunnerExtractor } from './contract.js';

export const denoTest: RunnerExtractor = {
  name: 'deno-test',
  header(t) {
    if (!t.includes(' => ')) return null;
    const m = /^(\S.*?) => \S+:\d+:\d+\s*$/.exec(t);
    return m ? cleanName(m[1]!) : null;
  },
};
