import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BASELINES_DIR } from '../baseline/baseline.ts';
import pc from 'picocolors';
import { CLIENT_SCENARIOS, type ClientScenario } from '../targets/client/clientScenarios.ts';
import { checkClient, type ClientScenarioResult } from '../targets/client/checkClient.ts';
import { CLIENT_INVARIANTS } from '../targets/client/judgeClient.ts';
import type { ClientTransport } from '../targets/client/runClientScenario.ts';
import type { SdkTestbed, SdkTestbedClient } from '../targets/testbed/index.ts';
import { writeFileAtomic, writeJsonAtomic } from '../util/atomicWrite.ts';
import { TOOL, type PackageId } from '../util/toolVersion.ts';
import { usageExit } from './usageExit.ts';
import { resolveTestbed } from '../targets/testbed/resolve.ts';
import { languageOf as testbedLanguage } from '../targets/testbed/languages.ts';
import { TargetArgumentError } from '../targets/Target.ts';
import { JSON_TO_STDOUT } from './commandHelp.ts';

/** The flags of `check --target L --client`. */
export interface CheckClientFlags {
  target: string;
  sdkVersion?: string;
  transport?: string;
  runs?: number;
  scenario?: string;
  json?: string;
  md?: string;
  updateBaseline?: boolean;
}

/** Runs of each scenario: enough for a rate, few enough for a command people run by hand. */
export const DEFAULT_CLIENT_RUNS = 3;

/** A client finding a release is known to have: `check --client` fails only beyond these. */
export interface ClientBaselineEntry {
  readonly transport: ClientTransport;
  readonly scenario: string;
  readonly invariant: string;
}

export interface ClientBaseline {
  readonly sdk: string;
  readonly version: string;
  readonly command: string;
  readonly entries: readonly ClientBaselineEntry[];
}

/** A client check's report (schemas/report.schema.json, `clientCheck`): real time, every finding with its rate. */
export interface ClientCheckReport {
  readonly schemaVersion: 1;
  readonly kind: 'client-check';
  readonly clock: 'real';
  readonly mode: 'black box, real time';
  readonly tool: PackageId;
  readonly language: string;
  readonly sdk: string;
  readonly version: string;
  readonly options: readonly string[];
  readonly lacks: readonly string[];
  readonly results: readonly ClientScenarioResult[];
}

/** `properties/baselines/clients/<language>@<version>.json`, in mcp-sim's own folder (shipped with the package). */
export const clientBaselinePath = (language: string, version: string): string => join(BASELINES_DIR, 'clients', `${language}@${version}.json`);

export function loadClientBaseline(language: string, version: string): ClientBaseline | undefined {
  const file = clientBaselinePath(language, version);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ClientBaseline) : undefined;
}

/** The test-bed client of an installed release, or bad input saying why there is none. */
export function testbedClient(testbed: SdkTestbed): SdkTestbedClient {
  if ('missing' in testbed.client) throw new TargetArgumentError(`mcp-sim check --target ${testbed.language} --client: ${testbed.client.missing}.`);
  return testbed.client;
}

function scenariosOf(list: string | undefined): readonly ClientScenario[] {
  if (list === undefined) return CLIENT_SCENARIOS;
  const names = list.split(',').map((n) => n.trim());
  const unknown = names.find((n) => !CLIENT_SCENARIOS.some((s) => s.name === n));
  if (unknown !== undefined) throw new TargetArgumentError(`mcp-sim check --client: unknown scenario ${JSON.stringify(unknown)}: one of ${CLIENT_SCENARIOS.map((s) => s.name).join(', ')}.`);
  return CLIENT_SCENARIOS.filter((s) => names.includes(s.name));
}

function transportsOf(name: string | undefined, client: SdkTestbedClient): readonly ClientTransport[] {
  if (name === undefined) return client.transports;
  if (name !== 'stdio' && name !== 'http') throw new TargetArgumentError(`mcp-sim check --client: unknown transport ${JSON.stringify(name)}: stdio or http (mcp-sim's scripted server is stateful Streamable HTTP).`);
  if (!client.transports.includes(name)) throw new TargetArgumentError(`mcp-sim check --client: this test-bed client offers ${client.transports.join(', ')}, not ${name}.`);
  return [name];
}

/** One scenario's line: the behaviour seen most, then ok or each finding with its rate. */
export function scenarioLine(r: ClientScenarioResult): string {
  const b = r.behaviours[0]!.behaviour;
  const outcomes = Object.entries(b.outcomes).map(([call, outcome]) => `${call} ${outcome}${b.cancelled.includes(call) ? ' (cancel sent)' : ''}`).join(', ');
  const varied = r.behaviours.length > 1 ? ` (in ${r.behaviours[0]!.runs} of ${r.runs} runs)` : '';
  return `${r.scenario.padEnd(22)} ${outcomes}${b.exit === 'exit 0' ? '' : `; ${b.exit}`}${varied}`;
}

/** The text report of a client check. */
export function formatClientReport(report: ClientCheckReport): string {
  const lines: string[] = [];
  for (const transport of [...new Set(report.results.map((r) => r.transport))]) {
    lines.push('', pc.bold(`${transport === 'stdio' ? 'stdio (the client starts the scripted server)' : 'Streamable HTTP (stateful, SSE: the scripted server listens on 127.0.0.1)'}`));
    for (const r of report.results.filter((x) => x.transport === transport)) {
      lines.push(`  ${scenarioLine(r)}`);
      for (const f of r.findings) lines.push(pc.red(`      ${f.invariant} (${f.level}) ${f.hits}/${r.runs} runs: ${f.detail}`));
      for (const n of r.notJudged) lines.push(pc.yellow(`      not judged: ${n}`));
    }
  }
  return lines.join('\n');
}

/** The Markdown report: the same, with each invariant's text. */
export function clientMarkdownReport(report: ClientCheckReport): string {
  const lines = [
    `# ${report.sdk} ${report.version}: the test-bed client`,
    '',
    `Real time, black box: each scenario ran ${report.results[0]?.runs ?? 0} times; a finding is given with its rate.`,
    '',
    '| transport | scenario | what the caller saw | findings |',
    '|---|---|---|---|',
  ];
  for (const r of report.results) {
    const findings = r.findings.map((f) => `\`${f.invariant}\` ${f.hits}/${r.runs}: ${f.detail.replaceAll('|', '\\|')}`).join('<br>') || (r.notJudged.length > 0 ? `not judged: ${r.notJudged.join('; ')}` : 'none');
    lines.push(`| ${r.transport} | ${r.scenario} | ${scenarioLine(r).slice(23).replaceAll('|', '\\|')} | ${findings} |`);
  }
  lines.push('', '## Invariants', '', ...Object.entries(CLIENT_INVARIANTS).map(([id, i]) => `- \`${id}\` (${i.level}): ${i.text}`), '');
  if (report.lacks.length > 0) lines.push('## What this client lacks', '', ...report.lacks.map((l) => `- ${l}`), '');
  return lines.join('\n');
}

/** The report of a client check: the SDK release, its client's options and lacks, each scenario's result. */
export function clientCheckReport(
  release: Pick<ClientCheckReport, 'language' | 'sdk' | 'version'>,
  client: Pick<SdkTestbedClient, 'options' | 'lacks'>,
  results: readonly ClientScenarioResult[],
): ClientCheckReport {
  return { schemaVersion: 1, kind: 'client-check', clock: 'real', mode: 'black box, real time', tool: TOOL, ...release, options: client.options, lacks: client.lacks, results };
}

const commandOf = (language: string, version: string, rest: string) => `npx mcp-sim check --target ${language} --sdk-version ${version} --client${rest}`;

/**
 * `mcp-sim check --target <language> --client`: every client scenario against that SDK's
 * test-bed client and mcp-sim's scripted server, over stdio and HTTP, `--runs` times each.
 * Exit 0 clean (every finding in the release's client baseline), 1 a finding beyond it, 2 bad input.
 */
export async function checkClientCommand(flags: CheckClientFlags): Promise<number> {
  try {
    const language = testbedLanguage(flags.target, `client:${flags.target}`);
    const runs = flags.runs ?? DEFAULT_CLIENT_RUNS;
    const scenarios = scenariosOf(flags.scenario);
    console.log(pc.bold(`mcp-sim check --target ${language} --client  (black box, real time)`));
    const testbed = await resolveTestbed(language, flags.sdkVersion);
    const client = testbedClient(testbed);
    const transports = transportsOf(flags.transport, client);
    const missing = (['resetTimeoutOnProgress', 'maxTotalTimeout'] as const).filter((o) => !client.options.includes(o));
    console.log(`  sdk           ${testbed.manifest.sdk.name} ${testbed.version}${testbed.pinned ? '' : ' (unpinned)'}: its test-bed client against mcp-sim's scripted server`);
    console.log(`  transports    ${transports.join(', ')}`);
    console.log(`  runs          ${runs} per scenario (${scenarios.length} scenarios): real time, each finding with its rate; nothing here is simulated`);
    console.log(`  options       ${client.options.length > 0 ? client.options.join(', ') : 'none'}${missing.length > 0 ? pc.yellow(` (lacks ${missing.join(', ')}: those outcomes are not judged)`) : ''}`);
    for (const l of client.lacks) console.log(pc.yellow(`  lacks         ${l}`));
    const baseline = loadClientBaseline(language, testbed.version);
    console.log(`  baseline      ${baseline ? `${baseline.entries.length} known finding(s)` : 'none yet (every finding is new)'}`);
    const results: ClientScenarioResult[] = [];
    for (const transport of transports) {
      results.push(
        ...(await checkClient(client.command, scenarios, transport, {
          runs,
          options: client.options,
          onRun: (scenario, run) => run === runs - 1 && process.stderr.write(`  ${transport} ${scenario}: ${runs} run(s)\n`),
        })),
      );
    }
    const report = clientCheckReport({ language, sdk: testbed.manifest.sdk.name, version: testbed.version }, client, results);
    const text = formatClientReport(report);
    if (flags.json === JSON_TO_STDOUT) process.stderr.write(`${text}\n`);
    else console.log(text);
    if (flags.json === JSON_TO_STDOUT) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else if (flags.json !== undefined) writeJsonAtomic(flags.json, report, { mkdir: true });
    if (flags.md !== undefined) writeFileAtomic(flags.md, clientMarkdownReport(report), { mkdir: true });
    const found: ClientBaselineEntry[] = results.flatMap((r) => r.findings.map((f) => ({ transport: r.transport, scenario: r.scenario, invariant: f.invariant })));
    if (flags.updateBaseline) {
      const file = clientBaselinePath(language, testbed.version);
      const kept = (baseline?.entries ?? []).filter((e) => !transports.includes(e.transport) || !scenarios.some((s) => s.name === e.scenario));
      const entries = [...kept, ...found].sort((a, b) => `${a.transport} ${a.scenario} ${a.invariant}`.localeCompare(`${b.transport} ${b.scenario} ${b.invariant}`));
      writeJsonAtomic(file, { sdk: testbed.manifest.sdk.name, version: testbed.version, command: commandOf(language, testbed.version, ` --runs ${runs} --update-baseline`), entries }, { mkdir: true });
      console.log(pc.green(`baseline ${relative(process.cwd(), file)}: ${entries.length} finding(s)`));
      return 0;
    }
    const isKnown = (f: ClientBaselineEntry) => baseline?.entries.some((e) => e.transport === f.transport && e.scenario === f.scenario && e.invariant === f.invariant) ?? false;
    const fresh = found.filter((f) => !isKnown(f));
    const label = `${testbed.manifest.sdk.name} ${testbed.version}'s client`;
    const known = found.length - fresh.length;
    const knownText = known > 0 ? ` (${known} known in the baseline)` : '';
    console.log(
      fresh.length === 0
        ? pc.green(`\nPASS ${label}: no new finding in ${runs} run(s) of each scenario${knownText}`)
        : pc.red(`\nFAIL ${label}: ${fresh.map((f) => `${f.invariant} (${f.transport} ${f.scenario})`).join(', ')} beyond the baseline${knownText}`),
    );
    return fresh.length === 0 ? 0 : 1;
  } catch (error) {
    return usageExit(error);
  }
}
