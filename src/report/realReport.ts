import type { RealCampaignReport, RealFinding } from '../campaign/real/realCampaign.ts';
import type { RealVerdict } from '../campaign/real/realVerdict.ts';
import type { ToolCount } from '../campaign/real/toolCounts.ts';
import { JUDGED_ON_A_REAL_CLOCK } from '../model/clock.ts';
import type { InvariantId } from '../model/invariants.ts';
import { formatTrace } from '../sim/trace.ts';
import { adviceFor, LANGUAGE_NAMES, sdkAdvice } from './languageAdvice.ts';
import { listByOwner, OWNER_WORDS, whoseLines, whoseParagraphs } from './whose.ts';
import { TOOL } from '../util/toolVersion.ts';
import { REPORT_SCHEMA_VERSION } from './jsonReport.ts';
import { wireBoundsText } from './boundsText.ts';
import { junitSuite } from './junitSuite.ts';
import { toMermaid } from './mermaid.ts';

/** The replay command and file of each finding, by its index in the report. */
export type RealReplays = ReadonlyMap<RealFinding, { readonly file: string; readonly command: string }>;

const what = (r: RealCampaignReport) => r.target.runsOn ?? 'run';

/** The lines every view of a real-time report starts with: what ran, on what clock, what it can and cannot see, how it waited, how fast. */
export function realReportHead(report: RealCampaignReport): string[] {
  const { preparation: p } = report;
  return [
    `real time (black box): ${report.target.label}`,
    ...(p.server ? [`server ${JSON.stringify(p.server.info)}, protocol ${p.server.protocolVersion ?? '?'}`] : []),
    `seed ${report.seed}, ${report.runs} runs, ${sharingLine(report)}`,
    // An SDK's client calls the scripted server's one tool, of no interest: its scenarios are its cases.
    ...(p.tools.length > 0 || p.skipped.length > 0 ? [`tools ${p.tools.join(', ')}${p.skipped.length ? `; skipped ${p.skipped.map((s) => `${s.name} (${s.reason})`).join(', ')}` : ''}`] : []),
    ...toolCountLines(report).map((l) => `calls of ${l}`),
    `bounds: --hang-after ${report.bounds.hangAfterMs} ms, in-flight ${report.bounds.inFlightMs} ms, grace ${report.bounds.graceMs} ms`,
    `wire bounds: ${wireBoundsText(report.bounds)}`,
    waitsLine(report),
    efficiencyLine(report),
    `sees: ${report.sees.sees.join('; ')}`,
    `cannot see: ${report.sees.cannotSee.join('; ')}`,
    ...report.sees.notJudged.map((n) => `not judged here: ${n.invariants === 'family' ? n.family : n.invariants.join(', ')}: ${n.why}`),
  ];
}

/** `work: 40 call(s), 12 cancelled, 25 with a progress token, 3 in flight at a close`: one tool's line in a report. */
export function toolCountLine(c: ToolCount): string {
  return `${c.tool}: ${c.calls} call(s), ${c.cancels} cancelled, ${c.withToken} with a progress token, ${c.closes} in flight at a close`;
}

/** Each tool's counts over the campaign's runs (none for a target whose cases call no tool: an SDK's client). */
const toolCountLines = (report: RealCampaignReport): string[] => (report.toolCounts ?? []).map(toolCountLine);

/**
 * What to change, in the server's language, for a finding on a user's own code (`author: user`):
 * `fix (Python, tool resize): …`; for one listed apart as the server SDK's way, that it is the
 * SDK's. None for the script's own, nor for an SDK's test bed or client (the SDK is the target).
 */
export function realAdvice(report: Pick<RealCampaignReport, 'target'>, f: RealFinding): string | undefined {
  if (report.target.author !== 'user' || f.owner === 'script') return undefined;
  const language = LANGUAGE_NAMES[report.target.language ?? 'any'];
  if (f.owner === 'sdk') return `the SDK's (${language}): ${sdkAdvice(report.target.language)}`;
  const advice = adviceFor(f.invariant, report.target.language);
  return advice === undefined ? undefined : `fix (${language}${f.tool ? `, tool ${f.tool}` : ''}): ${advice}`;
}

/** `3 processes`, `1 session`. */
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : word.endsWith('s') ? 'es' : 's'}`;

/** How the runs shared connections, or did not. */
function sharingLine(report: RealCampaignReport): string {
  const r = report.reuse;
  if (!r) return `one ${what(report)} per run, ${report.parallel} at once`;
  return `${r.note}: many cases at once on ${plural(r.connections, what(report))} (up to ${r.maxAtOnce} at once, median ${r.medianAtOnce}; every finding confirmed on a fresh ${what(report)} before it fails; ${r.lateFrames} frame(s) read after their case was cut, not judged${r.renamedTokens > 0 ? `; ${r.renamedTokens} progress token(s) renamed where an earlier case used them` : ''})`;
}

/** The waits, sized to the server, and what they came from. */
function waitsLine(report: RealCampaignReport): string {
  const w = report.waits;
  const tools = Object.entries(w.toolMs);
  const gaps = Object.entries(w.quietMs.progressGapMs ?? {});
  return [
    `waits (sized to the server): ping round trip ${w.roundTripMs.p50} ms median, ${w.roundTripMs.p95} ms p95 (${w.roundTripMs.pings} pings) → in-flight bound ${w.inFlightMs} ms`,
    `quiet window ${w.quietMs.least}–${w.quietMs.most} ms a case${gaps.length > 0 ? ` (2 × progress interval: ${gaps.map(([t, ms]) => `${t} ${ms} ms`).join(', ')})` : ''}`,
    ...(w.callsAtOnce ? [`the server saturated ${w.callsAtOnce.saturations} time(s) (pings not answered): calls at once capped at ${w.callsAtOnce.lowest} at the lowest, ${Number.isFinite(w.callsAtOnce.last) ? w.callsAtOnce.last : 'no cap'} at the end`] : []),
    `slow is not stuck: ${tools.length > 0 ? `${tools.map(([t, ms]) => `${t} took ${Math.round(ms)} ms${w.statedToolMs?.[t] !== undefined ? ` (stated ${w.statedToolMs[t]})` : ''}, a silent call of it waited ${Math.max(w.hangAfterMs, w.toolSilenceMs[t] ?? 0)} ms`).join('; ')}` : 'no tool showed how long it takes'} (--hang-after ${w.hangAfterMs} ms at least)`,
  ].join('; ');
}

/** How fast, against the limit (the server's own work). */
export function efficiencyLine(report: Pick<RealCampaignReport, 'efficiency'>): string {
  const e = report.efficiency;
  const s = e.startup;
  const started = [
    s.processes > 0 ? `${plural(s.processes, 'process')}, ${(s.totalMs / 1000).toFixed(1)} s in all` : '',
    s.sessions > 0 ? plural(s.sessions, 'session') : '',
    s.retried ? `${s.retried} opened on a second try after a failed open${s.renewedServers ? ` (${s.renewedServers} on a new server: the one running had stopped answering initialize)` : ''}` : '',
  ].filter(Boolean).join(', ');
  const p = e.phasesMs;
  return `efficiency: ${e.runsPerSecond} runs/s (${e.wallMs} ms wall: open ${p.prepare}, runs ${p.runs}, findings ${p.findings} (shrinking, rates); ${e.runsInAll} runs in all); start-up ${s.medianMs} ms median (${started || 'none'}); the server worked on calls ${Math.round(e.busyShare * 100)}% of the wall time (${(e.callMs / 1000).toFixed(1)} s of calls in all)`;
}

/** A finding's headline: its state, invariant and level, its cause. */
const headline = (f: RealFinding) => `${f.known ? 'KNOWN' : f.confirmed ? f.severity.toUpperCase() : 'UNCONFIRMED'} ${f.invariant} (${f.level}) [${f.cause.variant} ${f.cause.shape}]: ${f.message}`;

/** The text report: head, each finding with its cause, minimal case, rate and replay command; the SDK's way and the script's own apart. */
export function formatRealReport(report: RealCampaignReport, replays: RealReplays = new Map()): string {
  const lines = realReportHead(report);
  lines.push('');
  const show = (f: RealFinding) => {
    lines.push(headline(f), ...whoseLines(f));
    const advice = realAdvice(report, f);
    if (advice) lines.push(`  ${advice}`);
    lines.push(`  first in case ${f.firstCase}, in ${f.runs}/${report.runs} runs; ${f.known ? f.determinism : `minimal case after ${f.shrinks} shrink(s), ${f.determinism}`}:`);
    for (const line of f.steps) lines.push(`    ${line}`);
    if (f.reuse) lines.push(`  ${f.reuse.note}: ${f.reuse.onlyShared ? 'only shared connections show it: it does not fail the run' : f.confirmed ? 'confirmed on a fresh process' : 'no fresh process showed it'}; the replay runs it on a fresh one`);
    const replay = replays.get(f);
    if (replay) lines.push(`  replay: ${replay.command}`);
  };
  listByOwner(report.findings, lines, show, `no finding in ${report.runs} runs`);
  return lines.join('\n');
}

/** Markdown: the head, a table of findings, each finding's minimal case, replay command, Mermaid diagram and trace. */
export function realMarkdownReport(report: RealCampaignReport, verdict: RealVerdict, replays: RealReplays = new Map()): string {
  const out = [`# mcp-sim check: ${verdict.failed ? 'FAIL' : 'PASS'} (real time)`, '', ...realReportHead(report).filter((l) => !l.startsWith('calls of ')).map((l) => `- ${l}`), ''];
  const counts = report.toolCounts ?? [];
  if (counts.length > 0) {
    out.push(`Calls by tool over the ${report.runs} runs:`, '', '| tool | calls | cancelled | with a progress token | in flight at a close |', '|---|---|---|---|---|');
    for (const c of counts) out.push(`| \`${c.tool}\` | ${c.calls} | ${c.cancels} | ${c.withToken} | ${c.closes} |`);
    out.push('');
  }
  if (report.findings.length > 0) {
    out.push('| invariant | level | cause | runs | rate | |', '|---|---|---|---|---|---|');
    for (const f of report.findings) out.push(`| \`${f.invariant}\` | ${f.level} | ${f.cause.variant} ${f.cause.shape} | ${f.runs}/${report.runs} | ${f.determinism} | ${verdict.failing.includes(f) ? 'fails' : f.known ? 'known' : ''} |`);
    for (const f of report.findings) {
      const whose = f.owner === 'target' ? '' : `, ${OWNER_WORDS[f.owner]}`;
      const advice = realAdvice(report, f);
      out.push('', `## ${f.invariant} (${f.cause.shape}${whose})`, '', f.message, ...whoseParagraphs(f), ...(advice ? ['', advice] : []), '', ...f.steps.map((l) => `- ${l}`), '');
      const replay = replays.get(f);
      if (replay) out.push('```sh', replay.command, '```');
      out.push('```mermaid', toMermaid(f.trace), '```', '', '<details><summary>trace</summary>', '', '```', formatTrace(f.trace), '```', '', '</details>');
    }
  }
  return `${out.join('\n')}\n`;
}

/**
 * JUnit: one test case per tool and invariant of a call the campaign judged (`<tool>: <invariant>`), so a CI
 * page lists what held as well as what broke, failing where the verdict fails on a finding of that
 * tool (its message, rate, the fix in the server's language, its minimal case and replay command in
 * the failure body); a finding about no one call (`lifecycle.stdio-exit`) gets one per invariant (`server: <invariant>`). A target
 * whose cases call no tool (an SDK's client) gets one test case per finding. The per-tool counts
 * are properties of the suite; one test case names the campaign.
 */
export function realJunitReport(report: RealCampaignReport, verdict: RealVerdict, replays: RealReplays = new Map()): string {
  const system = report.target.system ?? { name: report.target.label, version: '-' };
  const counts = report.toolCounts ?? [];
  const { builder, suite } = junitSuite(`mcp-sim check ${report.target.argument.join(' ')} (real time)`, report.wallMs / 1000, { tool: TOOL, sdk: system }, {
    target: report.target.label,
    seed: String(report.seed),
    runs: String(report.runs),
    'runs-per-second': String(report.runsPerSecond),
    'startup-ms': String(report.startupMs),
    'busy-share': String(report.efficiency.busyShare),
    ...Object.fromEntries(counts.map((c) => [`calls:${c.tool}`, toolCountLine(c).slice(c.tool.length + 2)])),
  });
  suite.testCase().className('mcp-sim.campaign').name('campaign').standardOutput(realReportHead(report).join('\n'));
  const body = (f: RealFinding) => {
    const advice = realAdvice(report, f);
    return [`${f.message} (${f.determinism})`, ...(advice ? [advice] : []), ...f.steps, ...(replays.has(f) ? [`replay: ${replays.get(f)!.command}`] : [])].join('\n');
  };
  const standing = (f: RealFinding) => (f.known ? 'known cause' : f.confirmed ? (verdict.failing.includes(f) ? 'fails' : `below --fail-on ${verdict.failOn}`) : f.owner === 'target' ? 'unconfirmed' : OWNER_WORDS[f.owner]);
  const judge = (className: string, name: string, findings: readonly RealFinding[]) => {
    const test = suite.testCase().className(className).name(name);
    const failing = findings.filter((f) => verdict.failing.includes(f));
    // The message is the headline a CI page lists; the body (the fix, the minimal case, the replay command) what it opens.
    if (failing.length > 0) test.failure(failing.map((f) => `${f.message} (${f.determinism})`).join('; '), 'finding').stacktrace(failing.map(body).join('\n\n'));
    const rest = findings.filter((f) => !failing.includes(f));
    if (rest.length > 0) test.standardOutput(rest.map((f) => `${standing(f)}: ${body(f)}`).join('\n\n'));
  };
  const tools = report.preparation.tools;
  if (tools.length === 0) {
    for (const f of report.findings) judge(`mcp-sim.${f.invariant.slice(0, f.invariant.indexOf('.'))}`, `${f.invariant} [${f.cause.variant} ${f.cause.shape}]`, [f]);
    return builder.build();
  }
  for (const tool of tools) {
    const mine = report.findings.filter((f) => f.tool === tool);
    for (const id of new Set([...judgedCallIds(report), ...mine.map((f) => f.invariant)])) judge(`mcp-sim.${tool}`, `${tool}: ${id}`, mine.filter((f) => f.invariant === id));
  }
  // A finding about no one call of a listed tool (the process's exit, a frame no request asked for): per invariant.
  const unattributed = report.findings.filter((f) => f.tool === undefined || !tools.includes(f.tool));
  for (const id of new Set(unattributed.map((f) => f.invariant))) judge('mcp-sim.server', `server: ${id}`, unattributed.filter((f) => f.invariant === id));
  return builder.build();
}

/**
 * What a server can break in one call of a tool, on every transport: the invariants each tool's
 * test case lists whether it held or not (one of another transport, or about no call, gets its
 * test case where it was found).
 */
const CALL_INVARIANTS: readonly InvariantId[] = [
  'rpc.single-response',
  'progress.token-requested',
  'progress.after-response',
  'progress.increasing',
  'progress.total-stable',
  'progress.after-cancel',
  'cancel.no-response-after',
  'lifecycle.close-settles',
  'liveness.call-settles',
];

/** Of `CALL_INVARIANTS`, the ones the campaign judged: on a server's real clock, less what the target says it cannot judge. */
function judgedCallIds(report: RealCampaignReport): InvariantId[] {
  const not = new Set(report.sees.notJudged.flatMap((n) => (n.invariants === 'family' ? [] : n.invariants)));
  const families = new Set(report.sees.notJudged.flatMap((n) => (n.invariants === 'family' && n.family ? [n.family] : [])));
  return CALL_INVARIANTS.filter((id) => JUDGED_ON_A_REAL_CLOCK.server.has(id) && !not.has(id) && !families.has(id.slice(0, id.indexOf('.'))));
}

/**
 * The report as `--json` writes it (schemas/report.schema.json, kind `campaign` with `clock:
 * real`): the target, what it sees, the options and bounds, the verdict, every finding by cause
 * with its rate, minimal case, trace and replay command. The trace viewer draws it as recorded.
 */
export function realJsonReport(report: RealCampaignReport, verdict: RealVerdict, replays: RealReplays = new Map()): Record<string, unknown> {
  const { findings, ...rest } = report;
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    kind: 'campaign',
    tool: TOOL,
    ...rest,
    verdict: { result: verdict.failed ? 'fail' : 'pass', exitCode: verdict.failed ? 1 : 0, failOn: verdict.failOn, failing: verdict.failing.map((f) => f.invariant) },
    findings: findings.map((f) => {
      const replay = replays.get(f);
      const advice = realAdvice(report, f);
      return { ...f, failsCheck: verdict.failing.includes(f), ...(replay && { replay }), ...(advice && { advice }) };
    }),
  };
}
