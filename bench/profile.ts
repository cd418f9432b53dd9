/**
 * Where a simulated run's time goes: a CPU profile of many runs after a warm-up, summarised by
 * owner (`lib/cpuProfile.ts`).
 *
 *   node --import tsx bench/profile.ts [--what http|memory|campaign] [--runs 3000] [--warmup 300]
 *
 * `http` and `memory` repeat the harness bench's 1-request scenario on that profile; `campaign`
 * runs the default campaign's cases (memory and http, drawn and judged with coverage as `check`
 * runs them). The profiler starts after the warm-up and samples every 200 µs; the raw profile
 * goes to bench/results/quick/profile-<what>.cpuprofile (open it in Chrome's DevTools).
 */
import { Session } from 'node:inspector/promises';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, Option } from 'commander';
import { caseAt } from '../src/campaign/simCase.ts';
import { runChecked } from '../src/check/index.ts';
import { resolveCampaignOptions } from '../src/options/index.ts';
import { defaultSdk } from '../src/sdk/load.ts';
import { runScenario, type Scenario } from '../src/sim/index.ts';
import { requestsScenario } from './harness.bench.ts';
import { formatSummary, summarize, type CpuProfile } from './lib/cpuProfile.ts';

const flags = new Command()
  .name('bench/profile.ts')
  .addOption(new Option('--what <kind>', 'what to run').choices(['http', 'memory', 'campaign']).default('http'))
  .option('--runs <n>', 'runs profiled', '3000')
  .option('--warmup <n>', 'runs before the profiler starts', '300')
  .parse()
  .opts<{ what: 'http' | 'memory' | 'campaign'; runs: string; warmup: string }>();

const sdk = await defaultSdk();
const one = requestsScenario(1);
const scenario: Scenario = flags.what === 'http' ? { ...one, profile: 'http', http: { stateful: true, response: 'sse', eventStore: false } } : one;
const { seed, workload } = resolveCampaignOptions({}, {});
let index = 0;
const run = flags.what === 'campaign'
  ? async () => {
      const c = caseAt(seed, index++, workload);
      await runChecked(c.scenario, { tape: c.tape, seed: c.seed, coverage: true, sdk });
    }
  : async () => {
      await runScenario(scenario, { sdk });
    };

for (let i = 0; i < Number(flags.warmup); i++) await run();
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
await session.post('Profiler.start');
const started = performance.now();
const runs = Number(flags.runs);
for (let i = 0; i < runs; i++) await run();
const ms = performance.now() - started;
const { profile } = await session.post('Profiler.stop');
session.disconnect();

const out = join(resolve(fileURLToPath(new URL('.', import.meta.url))), 'results/quick');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, `profile-${flags.what}.cpuprofile`), JSON.stringify(profile));
console.log(`${flags.what}: ${runs} runs on ${sdk.name}@${sdk.version} in ${(ms / 1000).toFixed(2)} s (${(ms / runs).toFixed(3)} ms per run, profiler on)`);
for (const line of formatSummary(summarize(profile as CpuProfile))) console.log(line);
