import { defineConfig } from 'vitest/config';

/**
 * The tests that need the example servers and SDK test beds of other languages built
 * (`npm run examples`, `npm run testbeds:sdk`): they run in `npm run test:testbeds`
 * (vitest.testbeds.config.ts), which .ci/run calls after building them, so `npm test` needs
 * nothing but Node. Also the long real-time ones that need only Node (slow is not stuck: tools
 * of 4 s waited for, ~45 s of waiting), which would hold one of `npm test`'s two workers.
 */
export const TESTBED_TESTS = ['test/realtime/slowNotStuck.test.ts', 'test/docs/exampleCommands.test.ts', 'test/testbeds/sameProgram.test.ts', 'test/testbeds/*Releases.test.ts', 'test/testbeds/sdksDocsReplays.test.ts', 'test/testbeds/checkTarget.test.ts', 'test/testbeds/clients.test.ts', 'test/testbeds/behaviours.test.ts', 'examples/servers/java/javaExamples.test.ts', 'test/targets/everyForm.test.ts', 'test/fuzz/slowTools.test.ts', 'test/cli/replayFreshProcess.test.ts', 'test/targets/seventhKind.test.ts', 'test/cli/checkFirstHour.test.ts', 'examples/your-server/yourServer.test.ts', 'test/docs/yourServer.test.ts', 'test/realtime/hostile.test.ts', 'test/fuzz/cli.test.ts', 'test/fuzz/isolation.test.ts', 'test/cli/walkthrough.test.ts', 'test/cli/bisect.test.ts', 'test/campaign/shrinkMemo.test.ts', 'test/realtime/client/clientOracle.test.ts'];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'properties/**/*.test.ts', 'examples/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...TESTBED_TESTS],
    // Simulated runs are CPU-bound and long; the default 5 s would flag honest property runs.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One test file per core: vitest's default on 2 cores is a single worker.
    maxWorkers: 2,
  },
});
