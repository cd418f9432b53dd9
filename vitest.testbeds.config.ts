import { defineConfig } from 'vitest/config';
import { TESTBED_TESTS } from './vitest.config.ts';

/** `npm run test:testbeds`: the tests on the test beds of other languages, once they are built, and the long real-time and in-process tests that would push `npm test` past 5 minutes on 2 cores. */
export default defineConfig({
  test: {
    include: TESTBED_TESTS,
    testTimeout: 180_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Real time: one file at a time, so the servers' timings are not squeezed by a neighbour.
    maxWorkers: 1,
  },
});
