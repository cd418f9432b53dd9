import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'properties/**/*.test.ts', 'examples/**/*.test.ts'],
    // Simulated runs are CPU-bound and long; the default 5 s would flag honest property runs.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
