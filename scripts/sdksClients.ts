/**
 * `npm run sdks:clients [-- --runs N --languages a,b --releases newest|all]`: every client
 * scenario on every SDK's test-bed client (testbeds/CLIENT.md), its newest release and its oldest
 * one with a client, over stdio and Streamable HTTP, then writes docs/sdk-clients.md: one table per
 * transport, scenario × SDK release, each cell what the caller saw and each finding with its rate,
 * and each finding written as a report to send upstream (what, the frames, the spec rule, the
 * replay command), and each release's client baseline (properties/baselines/clients/: what
 * this run found, so `check --target L --client` fails on what is new). Black box, real time:
 * every cell is a rate, and the page says so.
 */
import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { clientBaselinePath, scenarioLine, testbedClient } from '../src/cli/checkClient.ts';
import { writeJsonAtomic } from '../src/util/atomicWrite.ts';
import { resolveTestbed } from '../src/targets/testbed/resolve.ts';
import { checkClient, type ClientScenarioResult } from '../src/targets/client/checkClient.ts';
import { CLIENT_SCENARIOS } from '../src/targets/client/clientScenarios.ts';
import { CLIENT_INVARIANTS, type ClientInvariantId } from '../src/targets/client/judgeClient.ts';
import type { ClientTransport, WireEntry } from '../src/targets/client/runClientScenario.ts';
import { SDK_TESTBED_LANGUAGES, sdkTestbedManifest, type SdkTestbedLanguage } from '../src/targets/testbed/index.ts';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const flag = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const runs = Number(flag('--runs') ?? 3);
const allReleases = flag('--releases') === 'all';
const languages = (flag('--languages')?.split(',') ?? SDK_TESTBED_LANGUAGES) as SdkTestbedLanguage[];
const out = flag('--out') ?? join(root, 'docs', 'sdk-clients.md');

interface Column {
  readonly language: SdkTestbedLanguage;
  readonly label: string;
  readonly sdk: string;
  readonly version: string;
  readonly lacks: readonly string[];
  readonly results: ClientScenarioResult[];
  readonly seconds: number;
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
    let testbed;
    try {
      testbed = await resolveTestbed(language, version);
    } catch (error) {
      skipped.push(`${language} ${version}: ${(error as Error).message}`);
      continue;
    }
    const client = testbedClient(testbed);
    const results: ClientScenarioResult[] = [];
    for (const transport of client.transports) {
      process.stderr.write(`sdks:clients: ${language} ${version} over ${transport}\n`);
      results.push(...(await checkClient(client.command, CLIENT_SCENARIOS, transport, { runs, options: client.options })));
    }
    // The release's client baseline: what this run found is what the release is known to do.
    const found = results.flatMap((r) => r.findings.map((f) => ({ transport: r.transport, scenario: r.scenario, invariant: f.invariant })));
    writeJsonAtomic(clientBaselinePath(language, version), { sdk: manifest.sdk.name, version, command: `npm run sdks:clients -- --runs ${runs}`, entries: found }, { mkdir: true });
    const label = `${language === 'typescript' ? 'TypeScript' : language[0]!.toUpperCase() + language.slice(1)} ${version}`;
    columns.push({ language, label, sdk: manifest.sdk.name, version, lacks: client.lacks, results, seconds: (performance.now() - t0) / 1000 });
  }
}
const wall = (performance.now() - started) / 1000;

const anchor = (c: Column, r: ClientScenarioResult, id: string) => `${c.language}-${c.version}-${r.transport}-${r.scenario}-${id}`.replaceAll(/[^a-z0-9-]/gi, '-').toLowerCase();
const replay = (c: Column, r: ClientScenarioResult) => `npx mcp-sim check --target ${c.language} --sdk-version ${c.version} --client --transport ${r.transport} --scenario ${r.scenario} --runs ${runs}`;

function cell(c: Column, r: ClientScenarioResult | undefined): string {
  if (!r) return 'n/a';
  const seen = scenarioLine(r).slice(23).replaceAll('|', '\\|');
  const findings = r.findings.map((f) => `[\`${f.invariant.replace('client.', '')}\` ${f.hits}/${r.runs}](#${anchor(c, r, f.invariant)})`);
  const notJudged = r.notJudged.length > 0 ? ['not judged: no such option'] : [];
  return [seen, ...findings, ...notJudged].join('<br>');
}

function frames(wire: readonly WireEntry[]): string[] {
  return wire.filter((w) => w.frame || (w.event && w.event !== 'http' && w.event !== 'start')).map((w) => `${String(w.t).padStart(7)} ms ${w.dir === 'in' ? '→ server' : w.dir === 'out' ? '← server' : '  event '} ${JSON.stringify(w.frame ?? { event: w.event })}`);
}

const lines: string[] = [
  '# SDK clients under the same scenarios',
  '',
  '<!-- generated by npm run sdks:clients; do not edit by hand -->',
  '',
  "Each official SDK's **client** against mcp-sim's scripted server: a test-bed client per SDK",
  "(`testbeds/<language>/`, written with that SDK's ordinary client API) plays the caller's side of",
  'each scenario below, and the scripted server (`src/targets/client/scriptedServer.mjs`, raw',
  'JSON-RPC) does what the scenario says, including what a correct server must not do. The judge',
  "reads the client's side channel (what the SDK told the caller) and the server's wire log (what the",
  'SDK put on the wire). One command runs it for one SDK:',
  '',
  '```',
  'npx mcp-sim check --target go --client',
  '```',
  '',
  `**Real time, black box.** One \`npm run sdks:clients\` run: ${columns.length} SDK releases, ${CLIENT_SCENARIOS.length} scenarios, each ${runs} times over each transport, in ${wall.toFixed(0)} s (${(wall / 60).toFixed(1)} min) on ${availableParallelism()} cores (load ${loadBefore.toFixed(1)} at the start). Every finding is given with its rate (runs that showed it, of ${runs}); a rate below ${runs}/${runs} is a race, and nothing here claims more than was shown.`,
  '',
  '## The scenarios',
  '',
  ...CLIENT_SCENARIOS.map((s) => `- **${s.name}**: ${s.question}`),
  '',
];
for (const transport of ['stdio', 'http'] as ClientTransport[]) {
  const cols = columns.filter((c) => c.results.some((r) => r.transport === transport));
  if (cols.length === 0) continue;
  lines.push(`## ${transport === 'stdio' ? 'stdio (the client starts the scripted server)' : 'Streamable HTTP (stateful, SSE)'}`, '');
  lines.push(`| scenario | ${cols.map((c) => c.label).join(' | ')} |`, `|---|${cols.map(() => '---').join('|')}|`);
  for (const s of CLIENT_SCENARIOS) lines.push(`| ${s.name} | ${cols.map((c) => cell(c, c.results.find((r) => r.transport === transport && r.scenario === s.name))).join(' | ')} |`);
  lines.push('');
}
lines.push('## Wall time per SDK release', '', '| release | seconds |', '|---|---|', ...columns.map((c) => `| ${c.label} | ${c.seconds.toFixed(0)} |`), '');
if (skipped.length > 0) lines.push('## Not run', '', ...skipped.map((s) => `- ${s}`), '');
lines.push('## The invariants', '', ...Object.entries(CLIENT_INVARIANTS).map(([id, i]) => `- \`${id}\` (${i.level}): ${i.text}`), '');
lines.push('## Findings, written to send upstream', '');
for (const c of columns) {
  for (const r of c.results) {
    for (const f of r.findings) {
      const inv = CLIENT_INVARIANTS[f.invariant as ClientInvariantId];
      lines.push(
        `<a id="${anchor(c, r, f.invariant)}"></a>`,
        `### ${c.sdk} ${c.version}, client: \`${f.invariant}\` (${r.scenario}, ${r.transport})`,
        '',
        `- **What:** ${f.detail}.`,
        `- **Scenario:** ${CLIENT_SCENARIOS.find((s) => s.name === r.scenario)!.question}`,
        `- **Rule (${inv.level}):** ${inv.text}.`,
        `- **Rate:** ${f.hits} of ${r.runs} runs, real time.`,
        `- **Replay:** \`${replay(c, r)}\``,
        '',
        '<details><summary>The wire, as the scripted server saw it (one run)</summary>',
        '',
        '```',
        ...frames(r.sample.wire).slice(0, 40),
        '```',
        '',
        '</details>',
        '',
      );
    }
  }
}
lines.push('## What each client lacks', '');
for (const c of columns.filter((x, i, all) => all.findIndex((y) => y.language === x.language) === i)) lines.push(`### ${c.sdk}`, '', ...c.lacks.map((l) => `- ${l}`), '');
writeFileSync(out, `${lines.join('\n')}\n`);
console.log(`sdks:clients: ${columns.length} releases, ${columns.reduce((n, c) => n + c.results.reduce((m, r) => m + r.findings.length, 0), 0)} finding(s), ${wall.toFixed(0)} s; wrote ${out}`);
