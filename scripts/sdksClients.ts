/**
 * `npm run sdks:clients [-- --runs N --languages a,b --releases newest|all]`: every client
 * scenario on every SDK's test-bed client (testbeds/CLIENT.md), its newest release and its oldest
 * one with a client, over stdio and Streamable HTTP, through the one real-time campaign that
 * `check client:<language>@<release>` runs (`--runs N`: each scenario N times on each transport),
 * judged by the model with the client under test. Then writes docs/sdk-clients.md: one table
 * per transport, scenario × SDK release, each cell what the caller saw and each finding with its
 * rate, each finding written as a report to send upstream (what, the trace, the spec rule, the
 * replay command), and each release's client baseline (properties/baselines/clients/: what this
 * run confirmed, so `check client:<language>@<release>` fails on what is new). Black box, real
 * time: every cell is a rate, and the page says so.
 */
import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { realCampaign, type Judged, type RealCampaignReport } from '../src/campaign/real/realCampaign.ts';
import { invariant, type InvariantId } from '../src/model/invariants.ts';
import { DEFAULT_CAMPAIGN_SEED, DEFAULT_HANG_AFTER_MS, DEFAULT_IN_FLIGHT_MS, DEFAULT_PROCESS_GRACE_MS } from '../src/options/defaults.ts';
import { formatTrace } from '../src/sim/trace.ts';
import type { FixedClientCase } from '../src/targets/client/clientCases.ts';
import { CLIENT_SCENARIOS } from '../src/targets/client/clientScenarios.ts';
import { clientKind } from '../src/targets/client/kind.ts';
import { openClient, type OpenedClient } from '../src/targets/client/open.ts';
import type { ClientTransport } from '../src/targets/testbed/languages.ts';
import { SDK_TESTBED_LANGUAGES, sdkTestbedManifest, type SdkTestbedLanguage } from '../src/targets/testbed/index.ts';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const flag = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const runs = Number(flag('--runs') ?? 3);
const allReleases = flag('--releases') === 'all';
const languages = (flag('--languages')?.split(',') ?? SDK_TESTBED_LANGUAGES) as SdkTestbedLanguage[];
const out = flag('--out') ?? join(root, 'docs', 'sdk-clients.md');
const bounds = { hangAfterMs: DEFAULT_HANG_AFTER_MS, inFlightMs: DEFAULT_IN_FLIGHT_MS, graceMs: DEFAULT_PROCESS_GRACE_MS };

/** What the runs of one scenario on one transport showed: each call's outcomes as the caller saw them, each invariant's runs. */
interface Cell {
  runs: number;
  readonly seen: Map<string, number>;
  readonly findings: Map<InvariantId, number>;
}

interface Column {
  readonly language: SdkTestbedLanguage;
  readonly label: string;
  readonly target: OpenedClient;
  readonly report: RealCampaignReport<FixedClientCase>;
  readonly cells: ReadonlyMap<string, Cell>;
  readonly seconds: number;
}

const cellKey = (transport: string, scenario: string) => `${transport} ${scenario}`;

/** What the caller saw in one run: each call's end, in the order of the trace (`c1 result, c2 timeout`). */
function callerSaw(judged: Judged): string {
  const ends = judged.trace.flatMap((e) => (e.kind === 'call-settle' ? [`${e.call} ${e.outcome === 'resolved' ? 'result' : e.code !== undefined && e.code !== 'timeout' ? `error ${e.code}` : (e.message ?? 'rejected')}`] : []));
  const cancelled = new Set(judged.trace.flatMap((e) => (e.kind === 'send' && e.from === 'client' && typeof e.frame === 'object' && e.frame !== null && (e.frame as { method?: unknown }).method === 'notifications/cancelled' ? ['cancel sent'] : [])));
  return [ends.join(', ') || 'no call settled', ...cancelled].join('; ');
}

const started = performance.now();
const loadBefore = loadavg()[0]!;
const columns: Column[] = [];
const skipped: string[] = [];
for (const language of languages) {
  const manifest = sdkTestbedManifest(language, { root });
  const releases = manifest?.client?.releases ?? [];
  if (!manifest?.client || releases.length === 0) {
    skipped.push(`${language}: no test-bed client yet`);
    continue;
  }
  // The manifest's releases are newest first; the client's list follows them.
  const versions = allReleases ? releases : [...new Set([releases[0]!, releases.at(-1)!])];
  for (const version of versions) {
    const t0 = performance.now();
    let target: OpenedClient;
    try {
      target = await openClient({ kind: 'client', language, release: version }, { graceMs: bounds.graceMs, scenarios: CLIENT_SCENARIOS.map((s) => s.name), say: (line) => process.stderr.write(`${line}\n`) }, clientKind.argumentOf);
    } catch (error) {
      skipped.push(`${language} ${version}: ${(error as Error).message}`);
      continue;
    }
    process.stderr.write(`sdks:clients: ${language} ${version} over ${target.transports.join(', ')}\n`);
    const cells = new Map<string, Cell>();
    const report = await realCampaign(target, {
      seed: DEFAULT_CAMPAIGN_SEED,
      runs: runs * CLIENT_SCENARIOS.length * target.transports.length,
      parallel: 1,
      bounds,
      rateRuns: runs,
      shrink: false,
      onRun: (_k, c, judged) => {
        const { scenario, transport } = c as FixedClientCase;
        const cell = cells.get(cellKey(transport, scenario)) ?? { runs: 0, seen: new Map(), findings: new Map() };
        cell.runs++;
        const saw = callerSaw(judged);
        cell.seen.set(saw, (cell.seen.get(saw) ?? 0) + 1);
        for (const id of new Set(judged.findings.map((f) => f.invariant))) cell.findings.set(id, (cell.findings.get(id) ?? 0) + 1);
        cells.set(cellKey(transport, scenario), cell);
      },
    });
    // The release's client baseline: what this run confirmed is what the release is known to do.
    target.baseline!.write(
      report.findings.filter((f) => f.confirmed),
      `npm run sdks:clients -- --runs ${runs}`,
    );
    const label = `${language === 'typescript' ? 'TypeScript' : language[0]!.toUpperCase() + language.slice(1)} ${version}`;
    // Fixed scenarios only (`scenarios` above): every case, so every minimal case, is a fixed one.
    columns.push({ language, label, target, report: report as RealCampaignReport<FixedClientCase>, cells, seconds: (performance.now() - t0) / 1000 });
  }
}
const wall = (performance.now() - started) / 1000;

const anchor = (c: Column, transport: string, scenario: string, id: string) => `${c.language}-${c.target.testbed.version}-${transport}-${scenario}-${id}`.replaceAll(/[^a-z0-9-]/gi, '-').toLowerCase();
const replay = (c: Column, transport: string, scenario: string) => `npx mcp-sim check client:${c.language}@${c.target.testbed.version} --transport ${transport} --scenario ${scenario} --runs ${runs}`;

function cell(c: Column, transport: ClientTransport, scenario: string): string {
  const r = c.cells.get(cellKey(transport, scenario));
  if (!r) return 'n/a';
  const seen = [...r.seen].sort((a, b) => b[1] - a[1]);
  const varied = seen.length > 1 ? ` (in ${seen[0]![1]} of ${r.runs} runs)` : '';
  const findings = [...r.findings].map(([id, hits]) => `[\`${id}\` ${hits}/${r.runs}](#${anchor(c, transport, scenario, id)})`);
  return [`${seen[0]![0].replaceAll('|', '\\|')}${varied}`, ...findings].join('<br>');
}

const lines: string[] = [
  '# SDK clients under the same scenarios',
  '',
  '<!-- generated by npm run sdks:clients; do not edit by hand -->',
  '',
  "Each official SDK's **client** against mcp-sim's scripted server: a test-bed client per SDK",
  "(`testbeds/<language>/`, written with that SDK's ordinary client API) plays the caller's side of",
  'each scenario below, and the scripted server (`src/targets/client/scriptedServer.mjs`, raw',
  'JSON-RPC) does what the scenario says, including what a correct server must not do. A run is one',
  "trace (`src/targets/client/clientTrace.ts`): the server's wire log and the client's side channel",
  '(what the SDK told the caller), on one clock, judged by the same model and rules as a simulated',
  'run, with the client under test (`JUDGED_ON_A_REAL_CLOCK.client`, docs/invariants.md). One',
  'command runs it for one SDK:',
  '',
  '```',
  'npx mcp-sim check client:go --scenario all',
  '```',
  '',
  `**Real time, black box.** One \`npm run sdks:clients\` run: ${columns.length} SDK releases, ${CLIENT_SCENARIOS.length} scenarios, each ${runs} times over each transport (each finding re-run ${runs} times for its rate), in ${wall.toFixed(0)} s (${(wall / 60).toFixed(1)} min) on ${availableParallelism()} cores (load ${loadBefore.toFixed(1)} at the start). Every finding is given with its rate (runs that showed it, of ${runs}); a rate below ${runs}/${runs} is a race, and nothing here claims more than was shown.`,
  '',
  '## Generated cases (the default of `check client:<language>`)',
  '',
  '`check client:<language>` runs 24 generated cases by default (`--runs`), drawn from the seed',
  '(`--seed`) out of the blocks the fixed scenarios are made of (`src/workload/clientCaseArbitrary.ts`):',
  '1 to 3 calls at their own times, with or without progress, maybe a timeout (reset on progress, a',
  'maximum total, where the test-bed client has those options), maybe aborted, maybe a close with',
  "calls in flight; for each call the scripted server's program: progress (with the call's token or",
  'one it invents), sleeps, requests to the client (sampling, elicitation, roots; cancelled by the',
  "server, or waited for; numbered by the server, 0, or the call's own id), an end (a result, an",
  'error, none), what a cancel does (stop, answer anyway, go on), and progress after the answer; the',
  "client's handlers answer at once, late or never. Every time sits on a grid: the server acts at",
  'even multiples of 100 ms after a call reached it, the caller at odd ones, so each thing one side',
  'does is 100 ms from each thing the other does, as in the fixed scenarios. A finding is shrunk',
  '(fewer calls, actions and steps, simpler ends, shorter sleeps, earlier times:',
  '`src/workload/clientCaseShrinks.ts`) to a minimal case, told apart from the others by the',
  'features of that case, re-run 3 times for its rate, and written as a replay file with the case',
  'inline (`mcp-sim replay FILE`). The fixed scenarios below stay: `--scenario NAME,…` or',
  '`--scenario all` (then `--seed` and `--shrink` are refused: nothing draws or shrinks them).',
  "`npm run sdks:clients:generated` runs the generated cases on every SDK's newest client and says of",
  'each finding whether the fixed scenarios found its invariant on that transport:',
  '[sdk-clients-generated.md](sdk-clients-generated.md).',
  '',
  'What the generated cases found that these scenarios did not: [sdk-clients-generated.md](sdk-clients-generated.md),',
  '"Beyond the fixed scenarios".',
  '',
  '## The scenarios',
  '',
  ...CLIENT_SCENARIOS.map((s) => `- **${s.name}**: ${s.question}`),
  '',
];
for (const transport of ['stdio', 'http'] as ClientTransport[]) {
  const cols = columns.filter((c) => c.target.transports.includes(transport));
  if (cols.length === 0) continue;
  lines.push(`## ${transport === 'stdio' ? 'stdio (the client starts the scripted server)' : 'Streamable HTTP (stateful, SSE)'}`, '');
  lines.push(`| scenario | ${cols.map((c) => c.label).join(' | ')} |`, `|---|${cols.map(() => '---').join('|')}|`);
  for (const s of CLIENT_SCENARIOS) lines.push(`| ${s.name} | ${cols.map((c) => cell(c, transport, s.name)).join(' | ')} |`);
  lines.push('');
}
lines.push('## Wall time per SDK release', '', '| release | seconds |', '|---|---|', ...columns.map((c) => `| ${c.label} | ${c.seconds.toFixed(0)} |`), '');
if (skipped.length > 0) lines.push('## Not run', '', ...skipped.map((s) => `- ${s}`), '');
const ids = [...new Set(columns.flatMap((c) => c.report.findings.map((f) => f.invariant)))].sort();
lines.push('## The invariants found', '', ...ids.map((id) => `- \`${id}\` (${invariant(id).level}, ${invariant(id).section}): ${invariant(id).property}`), '');
lines.push('## Findings, written to send upstream', '');
for (const c of columns) {
  for (const f of c.report.findings) {
    const { scenario, transport } = f.minimal;
    const inv = invariant(f.invariant);
    lines.push(
      `<a id="${anchor(c, transport, scenario, f.invariant)}"></a>`,
      `### ${c.target.testbed.manifest.sdk.name} ${c.target.testbed.version}, client: \`${f.invariant}\` (${scenario}, ${transport})`,
      '',
      `- **What:** ${f.message}`,
      `- **Scenario:** ${CLIENT_SCENARIOS.find((s) => s.name === scenario)!.question}`,
      `- **Rule (${inv.level}, ${inv.section}):** ${inv.property}.`,
      `- **Rate:** ${c.cells.get(cellKey(transport, scenario))?.findings.get(f.invariant) ?? f.runs} of ${runs} runs, ${f.determinism}; real time.`,
      `- **Replay:** \`${replay(c, transport, scenario)}\``,
      '',
      '<details><summary>The trace the model judged (one run)</summary>',
      '',
      '```',
      ...formatTrace(f.trace).split('\n').slice(0, 50),
      '```',
      '',
      '</details>',
      '',
    );
  }
}
lines.push('## What each client lacks', '');
for (const c of columns.filter((x, i, all) => all.findIndex((y) => y.language === x.language) === i)) lines.push(`### ${c.target.testbed.manifest.sdk.name}`, '', ...c.target.client.lacks.map((l) => `- ${l}`), '');
writeFileSync(out, `${lines.join('\n')}\n`);
console.log(`sdks:clients: ${columns.length} releases, ${columns.reduce((n, c) => n + c.report.findings.length, 0)} finding(s), ${wall.toFixed(0)} s; wrote ${out}`);
