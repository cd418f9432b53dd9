import { caseAt, type SimCase } from '../../campaign/simCase.ts';
import { invariant as catalogued, invariants, type InvariantId } from '../../model/invariants.ts';
import type { ResolvedWorkload } from '../../options/workloadOptions.ts';
import { replayCaseCommand, replayFileCommand } from '../../options/replayCaseCommand.ts';
import type { SdkAdapter } from '../../sdk/SdkAdapter.ts';
import type { TraceEvent } from '../../sim/index.ts';
import { chronological, recordRun, simulated, stepsOf, type RunCase } from './recordRun.ts';
import type { RealCampaignReport } from '../../campaign/real/realCampaign.ts';
import type { ToolCount } from '../../campaign/real/toolCounts.ts';
import { efficiencyLine, toolCountLine } from '../realReport.ts';
import type { ViewerData, ViewerFinding, ViewerRun } from './viewerTypes.ts';

/** A case the viewer can run: a scenario, its tape and seed. */
type Case = Pick<SimCase, 'scenario' | 'tape' | 'seed'>;

/** How to run a case of this report: simulated on the SDK, or against a fuzz target. */
export type CaseRunner = (c: Case) => RunCase;

export interface ViewerDataOptions {
  /** The SDK the report's cases run on (the report's own: `view` refuses another). */
  readonly sdk: SdkAdapter;
  /** How to run a fuzz report's cases (its target); simulated on `sdk` otherwise. */
  readonly runner?: CaseRunner;
  /** A file name to show in the title. */
  readonly source?: string;
}

/** One finding of the report before it is run: what it says, and the cases that show it. */
interface Planned {
  readonly invariant: string;
  readonly level?: string;
  readonly section?: string;
  readonly clause?: string;
  readonly message?: string;
  readonly commands: ViewerFinding['commands'];
  readonly shrunk: { readonly case: Case; readonly label: string };
  readonly original?: Case;
  readonly absent: string[];
}

type Json = Record<string, any>;

/**
 * The viewer's data for a report (`check`, `replay`, `explore`, `fuzz` JSON) or a replay file
 * (`check`'s or `fuzz`'s): each finding's case is run again, observed (the SDK's maps and the
 * enabled actions at every step), with the campaign case it was shrunk from and the nearest
 * schedule without the finding. Deterministic: the same report gives the same data.
 */
export async function viewerData(report: Json, options: ViewerDataOptions): Promise<ViewerData> {
  const realTime = report.clock === 'real' || report.realTime === true;
  const subtitle = `${report.tool?.name ?? report.madeWith?.tool?.name ?? 'mcp-sim'}@${report.tool?.version ?? report.madeWith?.tool?.version ?? '?'} on ${options.sdk.name}@${options.sdk.version}`;
  if (realTime) {
    // A black-box target is no SDK of mcp-sim's: name the server it talked to instead.
    const t = report.target as Json | undefined;
    const server = t?.server?.name ? `${t.server.name}${t.server.version ? `@${t.server.version}` : ''}` : undefined;
    const target = t?.label ? `${t.kind ?? 'target'} ${t.label}${server ? ` (server ${server})` : ''}` : subtitle;
    const efficiency = report.efficiency ? { efficiency: efficiencyLine(report as Pick<RealCampaignReport, 'efficiency'>) } : {};
    const counts = Array.isArray(report.toolCounts) && report.toolCounts.length > 0 ? { toolCounts: (report.toolCounts as ToolCount[]).map((c) => `calls of ${toolCountLine(c)}`) } : {};
    return { version: 1, clock: 'real', title: `mcp-sim ${kindOf(report)}${options.source ? `: ${options.source}` : ''}`, subtitle: target, ...efficiency, ...counts, ...recorded(report) };
  }
  const runner = options.runner ?? ((c: Case) => simulated(c, options.sdk));
  const planned = plan(report);
  const findings: ViewerFinding[] = [];
  const ids = new Map<string, number>();
  const runs = new RunTable(runner);
  for (const p of planned) {
    const base = p.clause ? `${p.invariant}/${p.clause}` : p.invariant;
    const n = (ids.get(base) ?? 0) + 1;
    ids.set(base, n);
    findings.push(await runFinding(p, n === 1 ? base : `${base}-${n}`, runs));
  }
  const coverage = report.coverage as ViewerData['coverage'] | undefined;
  return {
    version: 1,
    clock: 'virtual',
    title: `mcp-sim ${kindOf(report)}${options.source ? `: ${options.source}` : ''}`,
    subtitle,
    findings,
    runs: runs.runs,
    ...(coverage?.races && { coverage: { races: coverage.races, transitions: coverage.transitions ?? {} } }),
  };
}

/**
 * A real-time report (a black-box process target: `"clock": "real"`): its runs cannot be run
 * again byte for byte, so the page draws the traces the report carries, as they are. Each finding
 * (of `findings`, or `violations`/`warnings`/`notes`) with an `events` (or `trace`) array (trace events as
 * `src/sim/trace.ts` records them, `t` in real ms) becomes one; a finding without is listed with
 * no run. What a real-time run cannot observe (enabled actions, the SDK's maps) is absent.
 */
function recorded(r: Json): Pick<ViewerData, 'findings' | 'runs'> {
  // A replay file of a real-time case holds no run: its finding is listed with its rate when found.
  const fromFile = r.schemaVersion === 2 && r.case !== undefined ? [{ invariant: r.invariant ?? '(not named)', determinism: r.rate ? `reproduced ${r.rate.hits}/${r.rate.runs} when found` : undefined, replay: ['npx mcp-sim replay <this file>'] }] : undefined;
  const all: Json[] = fromFile ?? (Array.isArray(r.findings) ? r.findings : [...(r.violations ?? []), ...(r.warnings ?? []), ...(r.notes ?? [])]);
  const runs: ViewerRun[] = [];
  const findings: ViewerFinding[] = [];
  for (const f of all.filter((x) => fromFile !== undefined || Array.isArray(x.events ?? x.trace))) {
    const events = chronological((f.events ?? f.trace ?? []) as TraceEvent[]);
    const k = runs.push({ label: 'recorded', note: `the run as recorded in real time${f.reproduced ? `, reproduced ${f.reproduced}` : f.determinism ? `, ${f.determinism}` : ''}`, tape: [], seed: 0, traceHash: '', events: events as never, steps: stepsOf(events, undefined, new Map(), true), findings: [{ invariant: f.invariant, level: f.level ?? '', message: f.message ?? '' }] }) - 1;
    const known = invariants.has(f.invariant as InvariantId) ? catalogued(f.invariant as InvariantId) : undefined;
    const replay: unknown[] = Array.isArray(f.replay) ? f.replay : f.replay?.command ? [f.replay.command] : [];
    findings.push({
      id: findings.some((x) => x.id === f.invariant) ? `${f.invariant}-${findings.length + 1}` : f.invariant,
      invariant: f.invariant,
      level: f.level ?? known?.level ?? '',
      section: f.section ?? known?.section ?? '',
      ...(f.clause !== undefined && { clause: f.clause }),
      property: known?.property ?? '',
      message: f.message ?? f.explanation ?? '',
      commands: replay.filter((c): c is string => typeof c === 'string').map((command) => ({ label: 'replay', command })),
      runs: { shrunk: k },
      absent: ['The original and shrunk cases side by side, and the counterfactual: a black-box, real-time run is recorded, not replayed byte for byte; it has no scheduler and no tape of choices to compare or put back.'],
    });
  }
  return { findings, runs };
}

const kindOf = (r: Json): string => (typeof r.kind === 'string' ? r.kind : r.scenario || r.schemaVersion === 2 ? 'replay file' : 'report');

/** The findings a report names, with their cases. */
function plan(r: Json): Planned[] {
  // A sweep: the findings of each seed's campaign.
  if (r.kind === 'sweep') return (r.seeds as Json[]).flatMap((s) => (s.report ? campaignReport(s.report) : []));
  if (r.kind === 'campaign' && r.target?.kind !== 'module') {
    const workload = r.options.workload as ResolvedWorkload;
    return [...r.violations, ...r.warnings, ...r.notes].map((f: Json): Planned => {
      const index = (f.newCause?.firstCase ?? f.firstCase) as number;
      const original = caseAt(r.options.seed, index, workload);
      const commands = [{ label: 'replay the original case', command: f.replay.command }, ...(f.replay.fileCommand ? [{ label: 'replay the shrunk case', command: f.replay.fileCommand }] : [])];
      return {
        ...said(f),
        commands,
        shrunk: f.minimalCase ? { case: f.minimalCase.case, label: 'shrunk' } : { case: original, label: `case ${index} (not shrunk)` },
        original,
        absent: f.minimalCase ? [] : ['The shrunk case: the campaign ran without shrinking (--no-shrink), so the case shown is the first one found.'],
      };
    });
  }
  if (r.kind === 'replay') {
    const shown: Json[] = r.findings.length ? r.findings : [{ invariant: '(no finding)', message: 'this case shows no finding' }];
    const command = replayCommandOf(r.source, r.expect);
    return shown.map((f) => ({ ...said(f), commands: [{ label: 'replay this case', command }], shrunk: { case: r.case, label: 'replayed' }, absent: ['The original case: a replay report holds the case replayed, not the campaign case it came from (view the replay file for that).'] }));
  }
  if (r.kind === 'explore') {
    return r.findings.map((f: Json) => ({
      ...said(f),
      commands: f.replay ? [{ label: 'replay this schedule', command: f.replay.command }] : [],
      shrunk: { case: { scenario: r.scenario, tape: f.tape, seed: r.options.seed }, label: `least-deviating schedule (${f.deviations} deviations)` },
      absent: ['The original case: explore enumerates schedules; the one shown deviates least from the natural order.'],
    }));
  }
  if ((r.kind === 'fuzz' || (r.kind === 'campaign' && r.target?.kind === 'module')) && Array.isArray(r.findings)) {
    return r.findings
      .filter((f: Json) => f.owner === 'server')
      .map((f: Json) => ({
        ...said({ ...f, ...f.example, message: f.explanation ?? f.example?.message }),
        commands: (f.replay as string[]).map((command, k) => ({ label: k === 0 && f.counterexample ? 'replay the shrunk case' : 'replay the campaign case', command })),
        shrunk: f.counterexample ? { case: f.counterexample.case, label: 'shrunk' } : { case: undefined as unknown as Case, label: 'absent' },
        absent: f.counterexample ? ['The original case: the fuzz report keeps the campaign case by index only (its replay command above).'] : ['The case: the fuzz report has no counterexample for this finding.'],
      }))
      .filter((p: Planned) => p.shrunk.case !== undefined);
  }
  if (r.schemaVersion === 2 && r.target?.kind === 'module' && r.case) {
    return [{ ...said({ invariant: r.invariant ?? '(not named)' }), commands: [{ label: 'replay this case', command: 'npx mcp-sim replay <this file>' }], shrunk: { case: r.case, label: 'shrunk' }, absent: ['The original case: a module\'s replay file keeps the shrunk case only.'] }];
  }
  if (r.kind === 'fuzz' && r.case) {
    return [{ ...said({ invariant: r.invariant }), commands: [{ label: 'replay this case', command: 'npx mcp-sim replay <this file>' }], shrunk: { case: r.case, label: 'shrunk' }, absent: [] }];
  }
  // A replay file of a case in process (schemaVersion 2 holds it under "case"; 1 at the top).
  const inProcess = r.schemaVersion === 2 && r.clock === 'virtual' && r.target?.kind === 'sdk' ? { ...r.case, invariant: r.invariant, origin: r.origin } : r;
  if (inProcess.scenario && Array.isArray(inProcess.tape)) return replayFilePlans(inProcess);
  throw new Error(`view: the JSON is not a report of check (a campaign or a sweep), replay, explore or fuzz (kind ${JSON.stringify(r.kind)}) nor a replay file; give one that mcp-sim wrote with --json or into .mcp-sim/repro/`);
}

/** The plan of a replay file of a simulated case: its case, and the campaign case it was shrunk from. */
function replayFilePlans(r: Json): Planned[] {
  const original = r.origin ? caseAt(r.origin.campaignSeed, r.origin.caseIndex, r.origin.workload) : undefined;
  return [
    {
      ...said({ invariant: r.invariant ?? '(not named)' }),
      commands: [...(r.origin ? [{ label: 'replay the original case', command: r.origin.command as string }] : []), { label: 'replay this file', command: replayFileCommand('<this file>') }],
      shrunk: { case: r as Case, label: 'shrunk' },
      ...(original && { original }),
      absent: original ? [] : ['The original case: this replay file has no "origin" (it was not shrunk from a campaign case).'],
    },
  ];
}

/** The findings of a campaign report as the campaign keeps it (a sweep's seeds: `CampaignReport`, not the JSON view of it). */
function campaignReport(r: Json): Planned[] {
  return (r.findings as Json[]).map((f): Planned => {
    const index = (f.fresh?.firstCase ?? f.firstCase) as number;
    const original = caseAt(r.seed, index, r.workload);
    const example = f.fresh?.example ?? f.example;
    return {
      ...said({ invariant: f.invariant, level: example.level, section: example.section, clause: example.clause, message: example.message }),
      commands: [{ label: `replay the original case (seed ${r.seed})`, command: replayCaseCommand(r.seed, index, r.workload, { expect: f.invariant }) }],
      shrunk: f.counterexample ? { case: f.counterexample.case, label: 'shrunk' } : { case: original, label: `case ${index} (not shrunk)` },
      original,
      absent: f.counterexample ? [] : ['The shrunk case: the campaign ran without shrinking (--no-shrink), so the case shown is the first one found.'],
    };
  });
}

/** What a finding says of itself, completed from the catalogue. */
function said(f: Json): Omit<Planned, 'commands' | 'shrunk' | 'absent' | 'original'> {
  const known = invariants.has(f.invariant as InvariantId) ? catalogued(f.invariant as InvariantId) : undefined;
  return {
    invariant: f.invariant,
    ...((f.level ?? known?.level) && { level: f.level ?? known?.level }),
    ...((f.section ?? known?.section) && { section: f.section ?? known?.section }),
    ...(f.clause !== undefined && { clause: f.clause }),
    ...(f.message !== undefined && { message: f.message }),
  };
}

function replayCommandOf(source: Json, expect: string | undefined): string {
  if (source.kind === 'file') return replayFileCommand(source.file);
  if (source.kind === 'baseline') return `npx mcp-sim replay --baseline "${source.entry}"`;
  return replayCaseCommand(source.seed, source.caseIndex, source.workload, expect ? { expect: expect as InvariantId } : {});
}

/** The runs of a page, each case run once however many findings show it. */
class RunTable {
  readonly runs: ViewerRun[] = [];
  private readonly index = new Map<string, { readonly k: number; readonly findings: readonly string[] }>();
  constructor(private readonly runner: CaseRunner) {}

  /** The run of `c` (its index, and the invariants it shows); `undefined` when the case cannot run. */
  async get(label: string, note: string, c: Case): Promise<{ readonly k: number; readonly findings: readonly string[] }> {
    const key = JSON.stringify([c.scenario, c.tape, c.seed]);
    const known = this.index.get(key);
    if (known) return known;
    const { checked, ...run } = await recordRun(label, note, c, this.runner(c));
    const entry = { k: this.runs.push(run) - 1, findings: checked.findings.map((f) => f.invariant) };
    this.index.set(key, entry);
    return entry;
  }
}

async function runFinding(p: Planned, id: string, runs: RunTable): Promise<ViewerFinding> {
  const shrunk = await runs.get(p.shrunk.label, `tape ${JSON.stringify(p.shrunk.case.tape)}, run seed ${p.shrunk.case.seed}`, p.shrunk.case);
  const fromRun = runs.runs[shrunk.k]!.findings.find((f) => f.invariant === p.invariant);
  const known = invariants.has(p.invariant as InvariantId) ? catalogued(p.invariant as InvariantId) : undefined;
  const absent = [...p.absent];
  const original = p.original && (await runs.get('original', `the campaign case, tape ${JSON.stringify(p.original.tape)}`, p.original));
  const counterfactual = known ? await nearestWithout(p.invariant, p.shrunk.case, runs) : undefined;
  if (known && counterfactual === undefined) {
    absent.push(
      p.shrunk.case.tape.some((x) => x !== 0)
        ? 'The counterfactual: no schedule one choice away from the shrunk one is free of the finding (each choice put back to the natural order still shows it).'
        : 'The counterfactual: the shrunk case runs in the natural order (no deviation on its tape), so the finding needs no race of the schedule: it is in the scenario itself.',
    );
  }
  return {
    id,
    invariant: p.invariant,
    level: p.level ?? fromRun?.level ?? '',
    section: p.section ?? known?.section ?? '',
    ...(p.clause !== undefined && { clause: p.clause }),
    property: known?.property ?? '',
    message: p.message ?? fromRun?.message ?? '',
    commands: p.commands,
    runs: { shrunk: shrunk.k, ...(original && { original: original.k }), ...(counterfactual !== undefined && { counterfactual }) },
    absent,
  };
}

/**
 * The nearest schedule without the finding: the shrunk tape with one choice put back to the
 * natural one (0), first position first; absent when every such schedule still shows it. Costs
 * at most one run per non-zero choice of the (1-minimal, so short) tape.
 */
async function nearestWithout(invariant: string, c: Case, runs: RunTable): Promise<number | undefined> {
  for (let k = 0; k < c.tape.length; k++) {
    if (c.tape[k] === 0) continue;
    const alt = { ...c, tape: c.tape.map((x, j) => (j === k ? 0 : x)) };
    let run;
    try {
      run = await runs.get('counterfactual', `tape[${k}] ${c.tape[k]} → 0 (the natural choice at that point)`, alt);
    } catch {
      continue;
    }
    if (!run.findings.includes(invariant)) return run.k;
  }
  return undefined;
}
