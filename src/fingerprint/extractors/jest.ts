/**
 * jest: `FAIL test/a.test.js` opens a file's report, `● suite › name` a failing test's block
 * (not `● Console`); the tree marks failing tests `✕ name (3 ms)` (vitest `×`, read as `✖`).
 */
import { basename } from '../normalize.js';
import { cleanName, type RunnerExtractor } from './contract.js';

/** `FAIL test/a.test.js (1.2 s)`: the file the following test names belong to. */
export const FILE_FAIL = /^\s*FAIL\s+(\S+)(?:\s+\([\d.]+\s*m?s\))?\s*$/;

export const jest: RunnerExtractor = {
  name: 'jest',
  section(t, state) {
    if (!t.includes('FAIL')) return false;
    const m = FILE_FAIL.exec(t);
    if (m) state.file = m[1]!;
    return m !== null;
  },
  header(t, state) {
    if (!t.includes('●')) return null;
    const m = /^\s*●\s+(.+?)\s*$/.exec(t);
    if (!m || /^Console\b/.test(m[1]!)) return null;
    const name = cleanName(m[1]!);
    return state.file ? `${basename(state.file)} › ${name}` : name;
  },
  // (the duration in any of the shapes `cleanName` knows: `(3 ms)`, bun's `[0.37ms]`, which changes every run)
  marker(t) {
    const m = /^\s*[✖✕✗]\s+(.+?)\s*$/.exec(t);
    return m ? cleanName(m[1]!) : null;
  },
};
