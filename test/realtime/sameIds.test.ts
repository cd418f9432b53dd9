import { describe, expect, it } from 'vitest';
import { fuzzServer } from '../../src/fuzz/index.ts';
import { runPlanOn } from '../../src/campaign/real/realCampaign.ts';
import type { Plan } from '../../src/real/plan.ts';
import { stdioEndpoint } from '../../src/targets/index.ts';

const root = new URL('../..', import.meta.url).pathname;
const asProcess = (module: string) => stdioEndpoint({ command: [process.execPath, '--import', 'tsx', `${root}examples/servers/hostStdio.ts`, `${root}examples/servers/${module}`], cwd: root }, { graceMs: 1_000 });
const bounds = { hangAfterMs: 3_000, inFlightMs: 150, graceMs: 1_000 };
/** Two concurrent crawls of three pages, one with a progress token, one without. */
const crawls: Plan = {
  serverRequests: 'answer',
  calls: [
    { label: 'c1', tool: 'crawl', arguments: { urls: ['https://a.example/', 'https://b.example/', 'https://c.example/'] }, progressToken: 1, at: { kind: 'start', ms: 0 } },
    { label: 'c2', tool: 'crawl', arguments: { urls: ['https://d.example/', 'https://e.example/', 'https://f.example/'] }, at: { kind: 'written', call: 'c1', ms: 0 } },
  ],
};

/** Ids of findings on the server: in process (fuzzServer, virtual time) and as a process (black box, real time). */
async function both(module: string): Promise<[string[], string[]]> {
  // Loaded at run time, as `mcp-sim fuzz <module>` loads a user's server (it imports its own SDK).
  const { createServer: factory } = (await import(`${root}examples/servers/${module}`)) as { createServer: Parameters<typeof fuzzServer>[0] };
  const inProcess = await fuzzServer(factory, { runs: 60, seed: 1, shrink: false });
  const run = await runPlanOn(asProcess(module), crawls, bounds);
  return [[...new Set(inProcess.findings.filter((f) => f.owner === 'server').map((f) => f.invariant))].sort(), [...new Set(run.findings.map((f) => f.invariant))].sort()];
}

describe('the same TypeScript example, in process and as a process', () => {
  it.each([
    ['faulty/totalChanges.ts', 'progress.total-stable'],
    ['faulty/progressWithoutToken.ts', 'progress.token-requested'],
  ] as const)('Same ids: %s judged in process and over stdio', async (module, id) => {
    const [inProcess, overStdio] = await both(module);
    expect(inProcess).toEqual([id]);
    expect(overStdio).toEqual([id]);
  });
});
