import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // 2-core CI machines: bound parallel forks so subprocess-heavy tests stay predictable.
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    // Files run one after another in a reused fork, not each in a fresh one: starting a fork and
    // loading vitest, execa and src/ again cost ~0.4 s of CPU per file (measured on 32 files:
    // 64.6 s -> 49.3 s CPU). Tests share no state but these modules; the helpers that keep a
    // copy of dist/ per file take it again once its file's temp dirs are gone.
    isolate: false,
  },
});
