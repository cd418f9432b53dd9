/**
 * `npm run sdks:clients:generated [-- --runs N --seed S --languages a,b@release --transport stdio|http --shrink-ms MS]`:
 * the generated client campaign (the default of `check client:<language>`) on each SDK's default
 * test-bed client (or the release a language names), one language at a time, through the one real-time campaign. For each finding:
 * its invariant, where it ran, its minimal case (shrunk), its rate, and whether the fixed
 * scenarios found that invariant on that transport (the release's client baseline,
 * properties/baselines/clients/: what `npm run sdks:clients` confirmed), and writes what it
 * confirmed into that baseline (as the generated causes' entries, the fixed ones kept). Writes
 * docs/sdk-clients-generated.md (`--out FILE` elsewhere), progress on stderr. Real time, black
 * box: every finding is a rate.
 */
import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
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
/** The real-time budget of shrinking one cause, ms (`--shrink-ms`; the client's own by default, a minute). */
const shrinkMs = flag('--shrink-ms') === undefined ? undefined : Number(flag('--shrink-ms'));
const languages = flag('--languages')?.split(',') ?? [...SDK_TESTBED_LANGUAGES];
const file = flag('--out') ?? join(resolve(import.meta.dirname, '..'), 'docs', 'sdk-clients-generated.md');
const bounds = { hangAfterMs: DEFAULT_HANG_AFTER_MS, inFlightMs: DEFAULT_IN_FLIGHT_MS, graceMs: DEFAULT_PROCESS_GRACE_MS };

const started = performance.now();
const load = loadavg()[0]!;
const out: string[] = [];
/** Each finding whose invariant the fixed scenarios did not find on its transport, one line each. */
const beyond: string[] = [];
for (const named of languages) {
  const [language, release] = named.split('@') as [SdkTestbedLanguage, string | undefined];
  const t0 = performance.now();
  let target;
  try {
    target = await openClient({ kind: 'client', language, ...(release !== undefined && { release }), ...(transport && { transport }) }, { graceMs: bounds.graceMs, say: (line) => process.stderr.write(`${line}\n`) }, clientKind.argumentOf);
  } catch (error) {
    out.push(`## ${named}`, '', `not run: ${(error as Error).message}`, '');
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
    ...(shrinkMs !== undefined && { shrinkMsMax: shrinkMs }),
    known: target.baseline?.known,
    onProgress: (done, total, phase) => process.stderr.write(`  ${phase} ${done}/${total}\n`),
  });
  const seconds = (performance.now() - t0) / 1000;
  // The release's client baseline gets the generated causes this run confirmed (its fixed scenarios' entries kept), so `check client:<language>` fails only on news.
  target.baseline!.write(
    report.findings.filter((f) => f.confirmed),
    `npm run sdks:clients:generated -- --languages ${named} --runs ${runs} --seed ${seed}${transport ? ` --transport ${transport}` : ''}`,
  );
  const fixed = loadClientBaseline(language, version)?.entries.filter((e) => e.scenario !== undefined) ?? [];
  out.push(
    `## ${target.testbed.manifest.sdk.name} ${version} (${language})`,
    '',
    `${runs} generated cases over ${target.transports.join(' and ')}, in ${seconds.toFixed(0)} s${shrinkMs !== undefined ? ` (each cause shrunk for ${shrinkMs / 1000} s at most)` : ''}: ${report.findings.length} finding(s) by cause. Again: \`npx mcp-sim check client:${language}@${version} --seed ${seed} --runs ${runs}${transport ? ` --transport ${transport}` : ''}\`.`,
    '',
  );
  for (const f of report.findings) {
    const c = f.minimal as ClientCase;
    const same = fixed.filter((e) => e.invariant === f.invariant && e.transport === c.transport).map((e) => e.scenario);
    if (same.length === 0) beyond.push(`- ${target.testbed.manifest.sdk.name} ${version} (${language}): \`${f.invariant}\` over ${c.transport}, ${f.rate.hits}/${f.rate.runs}: ${f.message} Minimal case: ${f.steps.slice(1).join('; ')}`);
    out.push(
      `- \`${f.invariant}\` over ${c.transport}, cause \`${f.cause.shape}\`, rate ${f.rate.hits}/${f.rate.runs}${f.confirmed ? '' : ' (unconfirmed)'}, ${f.runs} run(s) of the campaign, shrunk ${f.shrinks} time(s): ${f.message}`,
      `  - the fixed scenarios: ${same.length > 0 ? `found it too on ${c.transport} (${same.join(', ')})` : `**did not find \`${f.invariant}\` on ${c.transport}**`}`,
      `  - minimal case${isGenerated(c) ? '' : ` (fixed scenario ${c.scenario})`}: ${f.steps.join('; ')}`,
    );
  }
  // And the other way round: what the fixed scenarios found on a transport these cases ran over, and these cases did not.
  const ran = new Set(report.findings.map((f) => `${f.invariant} ${(f.minimal as ClientCase).transport}`));
  const missed = [...new Set(fixed.filter((e) => target.transports.includes(e.transport) && !ran.has(`${e.invariant} ${e.transport}`)).map((e) => `\`${e.invariant}\` over ${e.transport}`))];
  out.push('', `The fixed scenarios found, and these cases did not: ${missed.length > 0 ? missed.join(', ') : 'nothing'}.`, '');
}
const wall = (performance.now() - started) / 1000;
const page = [
  '# SDK clients under generated cases',
  '',
  '<!-- generated by npm run sdks:clients:generated; do not edit by hand -->',
  '',
  "The generated client campaign (the default of `check client:<language>`, docs/sdk-clients.md)",
  "on each SDK's test-bed client: each finding with its minimal case (shrunk), its rate, and",
  "whether the fixed scenarios found its invariant on that transport (the release's client",
  'baseline, `properties/baselines/clients/`), and what the fixed scenarios found that these cases did not.',
  '',
  `**Real time, black box.** One \`npm run sdks:clients:generated\` run: ${languages.length} SDK(s), ${runs} generated cases each (seed ${seed}), in ${wall.toFixed(0)} s on ${availableParallelism()} cores (load ${load.toFixed(1)} at the start). A rate is runs of the minimal case that showed the finding again, of 3; nothing here claims more than was shown.`,
  '',
  '## Beyond the fixed scenarios',
  '',
  'The findings whose invariant the fixed scenarios did not find on that transport (of that release):',
  '',
  ...(beyond.length > 0 ? beyond : ['none']),
  '',
  ...out,
];
writeFileSync(file, `${page.join('\n').trimEnd()}\n`);
process.stderr.write(`sdks:clients:generated: wrote ${file} (${wall.toFixed(0)} s)\n`);
