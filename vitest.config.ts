import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // 2-core CI machines: bound parallel forks so subprocess-heavy tests stay predictable.
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
