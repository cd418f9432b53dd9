/**
 * `npm run sdks:clients:generated [-- --runs N --seed S --languages a,b --transport stdio|http]`:
 * the generated client campaign (the default of `check client:<language>`) on each SDK's newest
 * test-bed client, one language at a time, through the one real-time campaign. For each finding:
 * its invariant, where it ran, its minimal case (shrunk), its rate, and whether the fixed
 * scenarios found that invariant on that transport (the release's client baseline,
 * properties/baselines/clients/: what `npm run sdks:clients` confirmed). Prints Markdown on
 * stdout (the measured section of docs/sdk-clients.md), progress on stderr. Real time, black
 * box: every finding is a rate.
 */
import { performance } from 'node:perf_hooks';
import { realCampaign } from '../src/campaign/real/realCampaign.ts';
import { DEFAULT_CAMPAIGN_SEED, DEFAULT_CLIENT_RATE_RUNS, DEFAULT_CLIENT_RUNS, DEFAULT_HANG_AFTER_MS, DEFAULT_IN_FLIGHT_MS, DEFAULT_PROCESS_GRACE_MS } from '../src/options/defaults.ts';
import { loadClientBaseline } from '../src/targets/client/clientBaseline.ts';
import { isGenerated, type ClientCase } from '../src/targets/client/clientCases.ts';
import { clientKind } from '../src/targets/client/kind.ts';
import { openClient } from '../src/targets/client/open.ts';
import type { ClientTransport } from '../src/targets/testbed/languages.ts';
import { SDK_TESTBED_LANGUAGES, type SdkTestbedLanguage } from '../src/targets/testbed/index.ts';

const args = process.argv.slice(2);
const flag = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const runs = Number(flag('--runs') ?? DEFAULT_CLIENT_RUNS);
const seed = Number(flag('--seed') ?? DEFAULT_CAMPAIGN_SEED);
const transport = flag('--transport') as ClientTransport | undefined;
const languages = (flag('--languages')?.split(',') ?? SDK_TESTBED_LANGUAGES) as SdkTestbedLanguage[];
const bounds = { hangAfterMs: DEFAULT_HANG_AFTER_MS, inFlightMs: DEFAULT_IN_FLIGHT_MS, graceMs: DEFAULT_PROCESS_GRACE_MS };

const out: string[] = [];
for (const language of languages) {
  const t0 = performance.now();
  let target;
  try {
    target = await openClient({ kind: 'client', language, ...(transport && { transport }) }, { graceMs: bounds.graceMs, say: (line) => process.stderr.write(`${line}\n`) }, clientKind.argumentOf);
  } catch (error) {
    out.push(`### ${language}`, '', `not run: ${(error as Error).message}`, '');
    continue;
  }
  const version = target.testbed.version;
  process.stderr.write(`sdks:clients:generated: ${language} ${version} over ${target.transports.join(', ')}, ${runs} runs, seed ${seed}\n`);
  const report = await realCampaign(target, {
    seed,
    runs,
    parallel: 1,
    bounds,
    rateRuns: DEFAULT_CLIENT_RATE_RUNS,
    shrink: true,
    known: target.baseline?.known,
    onProgress: (done, total, phase) => process.stderr.write(`  ${phase} ${done}/${total}\n`),
  });
  const seconds = (performance.now() - t0) / 1000;
  const fixed = loadClientBaseline(language, version)?.entries.filter((e) => e.scenario !== undefined) ?? [];
  out.push(`### ${target.testbed.manifest.sdk.name} ${version} (${language})`, '', `${runs} generated cases (seed ${seed}) over ${target.transports.join(' and ')}, in ${seconds.toFixed(0)} s: ${report.findings.length} finding(s) by cause.`, '');
  for (const f of report.findings) {
    const c = f.minimal as ClientCase;
    const same = fixed.filter((e) => e.invariant === f.invariant && e.transport === c.transport).map((e) => e.scenario);
    out.push(
      `- \`${f.invariant}\` over ${c.transport}, cause \`${f.cause.shape}\`, rate ${f.rate.hits}/${f.rate.runs}${f.confirmed ? '' : ' (unconfirmed)'}, ${f.runs} run(s) of the campaign, shrunk ${f.shrinks} time(s): ${f.message}`,
      `  - the fixed scenarios: ${same.length > 0 ? `found it too on ${c.transport} (${same.join(', ')})` : `**did not find \`${f.invariant}\` on ${c.transport}**`}`,
      `  - minimal case${isGenerated(c) ? '' : ` (fixed scenario ${c.scenario})`}: ${f.steps.join('; ')}`,
    );
  }
  out.push('');
}
process.stdout.write(`${out.join('\n')}\n`);
