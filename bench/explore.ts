/**
 * `npm run bench:explore`: per preset, the schedules `explore` runs without and with the
 * reduction and the time each takes, and, for each baseline cause a preset reaches, how soon
 * `explore` meets it and how soon random schedule tapes (the campaign's own tape generator) do.
 * Prints Markdown and writes it to bench/results/explore.md; docs/explore.md quotes one run.
 * Ratios are measured in one run on one machine: no test asserts on them.
 */
import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { knownCausesOf, loadBaseline } from '../src/baseline/baseline.ts';
import { runChecked } from '../src/check/index.ts';
import { causeOf, explore, explorePresets } from '../src/explore/index.ts';
import { defaultSdk } from '../src/sdk/load.ts';
import { tapeArbitrary } from '../src/workload/index.ts';

/** Random tapes tried per cause before giving up. */
const RANDOM_RUNS_MAX = 2_000;
/** Seed of the random tapes. */
const RANDOM_SEED = 20_261_201;

const sdk = await defaultSdk();
const known = knownCausesOf(loadBaseline(sdk.name, sdk.version));
const presetRows: string[] = [];
const detectionRows: string[] = [];
for (const preset of explorePresets) {
  const scope = { sdk, known, ...(preset.virtualMsMax !== undefined && { virtualMsMax: preset.virtualMsMax }) };
  const reduced = await explore(preset.scenario, { ...scope, reduce: true });
  const full = await explore(preset.scenario, { ...scope, reduce: false });
  const fullCell = full.complete ? `${full.stats.schedules}` : `> ${full.stats.schedules} (cut)`;
  const factor = full.complete ? `${(full.stats.schedules / reduced.stats.schedules).toFixed(1)}×` : `> ${(full.stats.schedules / reduced.stats.schedules).toFixed(0)}×`;
  const verdict = reduced.complete
    ? reduced.findings.length === 0
      ? 'exhaustive: clean'
      : `exhaustive: ${reduced.findings.length} causes (${reduced.findings.filter((f) => !f.known).length} beyond the baseline)`
    : 'bounded';
  presetRows.push(
    `| ${preset.name} | ${fullCell} | ${(full.ms / 1000).toFixed(1)} s | ${reduced.stats.schedules} | ${(reduced.ms / 1000).toFixed(1)} s | ${factor} | ${reduced.endStates.length} | ${verdict} |`,
  );
  const tapes = fc.sample(tapeArbitrary(), { seed: RANDOM_SEED, numRuns: RANDOM_RUNS_MAX });
  for (const f of reduced.findings.filter((x) => x.known)) {
    const started = performance.now();
    let found: number | undefined;
    for (let k = 0; k < tapes.length && found === undefined; k++) {
      const run = await runChecked(preset.scenario, { tape: tapes[k]!, sdk, ...(preset.virtualMsMax !== undefined && { maxVirtualMs: preset.virtualMsMax }) });
      if (run.findings.some((g) => causeOf(g, preset.scenario) === f.cause)) found = k + 1;
    }
    const randomMs = performance.now() - started;
    const random = found === undefined ? `not in ${RANDOM_RUNS_MAX} runs (${(randomMs / 1000).toFixed(1)} s)` : `run ${found}, ${randomMs.toFixed(0)} ms`;
    detectionRows.push(`| ${preset.name} | ${f.cause} | schedule ${f.firstAt.schedule}, ${f.firstAt.ms.toFixed(0)} ms | ${random} |`);
  }
}
const markdown = [
  `Measured with ${sdk.name}@${sdk.version}, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}.`,
  '',
  '| preset | schedules, unreduced | time | schedules, DPOR | time | reduction | end states | verdict (DPOR) |',
  '|---|---:|---:|---:|---:|---:|---:|---|',
  ...presetRows,
  '',
  `First detection of each baseline cause a preset reaches: by \`explore\` (DPOR, in its order), and by random schedule tapes of the campaign's generator (seed ${RANDOM_SEED}, at most ${RANDOM_RUNS_MAX}).`,
  '',
  '| preset | cause | explore | random tapes |',
  '|---|---|---:|---:|',
  ...detectionRows,
  '',
].join('\n');
console.log(markdown);
writeFileSync(new URL('./results/explore.md', import.meta.url), markdown);
