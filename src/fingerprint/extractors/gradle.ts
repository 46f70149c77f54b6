/** Gradle's test task: `FooTest > testBar() FAILED`. */
import { type RunnerExtractor } from './contract.js';

export const gradle: RunnerExtractor = {
  name: 'gradle',
  header(t) {
    if (!t.endsWith('FAILED') && !t.includes('FAILED ')) return null;
    const m = /^(\S.*?)\s+>\s+(.+?)\s+FAILED\s*$/.exec(t);
    return m ? `${m[1]} > ${m[2]}` : null;
  },
};
