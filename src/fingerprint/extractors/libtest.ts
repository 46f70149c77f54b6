/** Rust's libtest (cargo test): `---- tests::name stdout ----` blocks; `test tests::name ... FAILED` markers. */
import { type RunnerExtractor } from './contract.js';

export const libtest: RunnerExtractor = {
  name: 'libtest',
  header(t) {
    if (!t.startsWith('---- ')) return null;
    return /^---- (.+?) stdout ----$/.exec(t)?.[1] ?? null;
  },
  marker(t) {
    return /^\s*test\s+(\S+)\s+\.\.\.\s+FAILED\s*$/.exec(t)?.[1] ?? null;
  },
};
