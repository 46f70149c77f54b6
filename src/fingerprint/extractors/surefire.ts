/** Maven surefire: `[ERROR] testFoo(com.x.FooTest)  Time elapsed: 0.01 s  <<< FAILURE!` (JUnit 4 and 5 layouts). */
import { type RunnerExtractor } from './contract.js';

export const surefire: RunnerExtractor = {
  name: 'surefire',
  header(t) {
    if (!t.includes('<<<')) return null;
    const m = /^\[ERROR\]\s+(\S+?)(?:\(([\w.$]+)\))?\s+(?:--\s+)?Time elapsed:.*<<<\s*(?:FAILURE|ERROR)!/.exec(t);
    return m ? (m[2] ? `${m[2]}.${m[1]}` : m[1]!) : null;
  },
};
