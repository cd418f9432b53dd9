import type { InvariantId } from '../model/invariants.ts';
import { minimize } from '../campaign/minimize.ts';
import { shrinkCounterexample, type CheckedRunner } from '../campaign/runCampaign.ts';
import { caseAt, caseSeed, type SimCase } from '../campaign/simCase.ts';
import type { ResolvedBaselineOptions } from '../options/index.ts';
import { realGlobals } from '../sim/realGlobals.ts';
import { knownCausesOf, type Baseline, type BaselineEntry } from './baseline.ts';
import { covers, shapeKey, shapeOf, variantOf } from '../campaign/cause.ts';
import { scriptExplains } from '../campaign/conduct.ts';
import { causesOf } from '../campaign/knownCauses.ts';
import { countedFindings } from '../campaign/rootCauses.ts';
import type { Finding } from '../model/finding.ts';
import { workloadKey } from '../options/index.ts';
import { SESSION_ERA, type SpecRevision } from '../model/specRevision.ts';

/** What a baseline build needs besides its options: the SDK it is about, the runner, what to keep. */
export interface BaselineContext {
  readonly package: string;
  readonly version: string;
  /** The rule set the campaign's workload is judged by, recorded in the baseline (`Baseline.spec`). @default SESSION_ERA */
  readonly spec?: SpecRevision;
  readonly runner: CheckedRunner;
  /** More cases to cover exhaustively (the property suite's): every finding in them gets an entry. */
  readonly extraCases?: readonly SimCase[];
  /** Explanations kept from an earlier baseline, by `entryKey`. */
  readonly explanations?: ReadonlyMap<string, string>;
  readonly command?: string;
  readonly onProgress?: (message: string) => void;
  /**
   * The campaign cases to run; the others are drawn but not run (a release that lacks their
   * profile), so every release of a version matrix runs the very same cases of the profiles it has.
   * @default every case
   */
  readonly only?: (c: SimCase) => boolean;
}


/** An entry's name: `<invariant>[/<clause>] <variant> <shape>` (what `replay --baseline` takes). */
export const entryKey = (e: Pick<BaselineEntry, 'invariant' | 'variant' | 'shape' | 'clause'>) =>
  `${e.invariant}${e.clause !== undefined ? `/${e.clause}` : ''} ${e.variant} ${e.shape}`;

/** True when the case still shows `invariant` on `variant`: the predicate shrinking keeps. */
export function showsFinding(runner: CheckedRunner, invariant: InvariantId, variant: string, clause?: string) {
  return async (c: SimCase): Promise<boolean> =>
    variantOf(c.scenario) === variant &&
    (await runner(c.scenario, { tape: c.tape, seed: c.seed })).findings.some((f) => f.invariant === invariant && f.clause === clause);
}

interface Occurrence {
  readonly case: SimCase;
  /** fast-check seed that generates `case` first, when it came from the campaign. */
  readonly fcSeed?: number;
  readonly runs: number;
  readonly ms: number;
  readonly message: string;
}

/**
 * Runs a fixed-seed campaign and turns what it finds into baseline entries: for each
 * (invariant, transport variant), the first occurrence shrunk to a 1-minimal case, then any later
 * occurrence that cannot be a known cause (see `shapeOf`), shrunk too. Detection and shrinking
 * are timed for the findings table.
 */
export async function buildBaseline(
  run: Pick<ResolvedBaselineOptions, 'seed' | 'runs' | 'workload' | 'shrinkTimeMsMax'>,
  options: BaselineContext,
): Promise<Baseline> {
  const now = () => realGlobals.Date.now();
  const seen = new Map<string, { invariant: InvariantId; clause: string | undefined; variant: string; occurrences: Occurrence[] }>();
  // What each campaign case counted (as a campaign counts it), for the entries' rates.
  const campaignCounts: { readonly case: SimCase; readonly counted: readonly Finding[] }[] = [];
  const started = now();
  const observe = async (c: SimCase, occurrence: (message: string) => Occurrence, forced: boolean) => {
    const { findings } = await options.runner(c.scenario, { tape: c.tape, seed: c.seed });
    if (!forced) campaignCounts.push({ case: c, counted: countedFindings(findings).counted });
    const variant = variantOf(c.scenario);
    const firsts = new Map(findings.map((f) => [`${f.invariant}/${f.clause ?? ''}`, f] as const).reverse());
    for (const f of firsts.values()) {
      const { invariant, clause } = f;
      if (scriptExplains({ invariant }) !== undefined) continue;
      const key = entryKey({ invariant, clause, variant, shape: '' });
      const entry = seen.get(key) ?? { invariant, clause, variant, occurrences: [] };
      seen.set(key, entry);
      // An occurrence with every feature of an earlier one is that cause again (or a cause its shrinking finds).
      const shape = shapeOf(c);
      if (forced || !entry.occurrences.some((o) => covers(shape, shapeOf(o.case)))) {
        entry.occurrences.push(occurrence(f.message));
      }
    }
  };
  for (let index = 0; index < run.runs; index++) {
    const c = caseAt(run.seed, index, run.workload);
    if (options.only && !options.only(c)) continue;
    const ms = now() - started;
    await observe(c, (message) => ({ case: c, fcSeed: caseSeed(run.seed, index), runs: index + 1, ms, message }), false);
    if ((index + 1) % 250 === 0) options.onProgress?.(`campaign ${index + 1}/${run.runs}: ${seen.size} (invariant, variant) pairs`);
  }
  for (const c of options.extraCases ?? []) {
    await observe(c, (message) => ({ case: c, runs: 0, ms: 0, message }), true);
  }

  const entries: BaselineEntry[] = [];
  for (const [key, { invariant, clause, variant, occurrences }] of [...seen].sort(([a], [b]) => a.localeCompare(b))) {
    const fires = showsFinding(options.runner, invariant, variant, clause);
    const shapes: Set<string>[] = [];
    for (const occ of occurrences) {
      const original = occ.case;
      if (shapes.some((s) => covers(shapeOf(original), s))) continue;
      const shrinkStart = now();
      // Campaign cases shrink with fast-check first; the greedy pass below finishes every case.
      const shrunk = occ.fcSeed === undefined ? undefined : await shrinkCounterexample({ invariant, fcSeed: occ.fcSeed }, {
        // Shrinking must stay on the variant and clause the entry is about.
        runner: async (s, o) => {
          const r = await options.runner(s, o);
          return variantOf(s) === variant ? { ...r, findings: r.findings.filter((f) => f.invariant !== invariant || f.clause === clause) } : { ...r, findings: [] };
        },
        workload: run.workload,
        shrinkTimeMsMax: run.shrinkTimeMsMax,
      });
      const { case: minimal, removals } = shrunk ?? (await minimize(original, fires));
      const shape = shapeOf(minimal);
      if (shapes.some((s) => covers(shape, s))) continue;
      shapes.push(shape);
      const { findings } = await options.runner(minimal.scenario, { tape: minimal.tape, seed: minimal.seed });
      const message = findings.find((f) => f.invariant === invariant && f.clause === clause)?.message ?? occ.message;
      const entry = { invariant, variant, shape: shapeKey(shape), ...(clause !== undefined && { clause }) };
      entries.push({
        ...entry,
        explanation: options.explanations?.get(entryKey(entry)) ?? message,
        counterexample: minimal,
        measured: { runsToDetect: occ.runs, msToDetect: occ.ms, msToShrink: now() - shrinkStart, shrinks: shrunk?.shrinks ?? 0, removals },
      });
      options.onProgress?.(`shrunk ${key} [${entry.shape}]: ${minimal.scenario.actions.length} action(s), tape [${minimal.tape.join(',')}]`);
    }
  }
  // Each entry's rate: the campaign runs in which it explains a counted finding, as `check` counts it.
  const baseline: Baseline = { package: options.package, version: options.version, ...(options.command && { command: options.command }), entries };
  const known = knownCausesOf(baseline);
  const runs = entries.map(() => 0);
  for (const { case: c, counted } of campaignCounts) {
    for (const i of new Set(counted.flatMap((f) => causesOf(known, c, f)))) runs[i]!++;
  }
  return {
    package: baseline.package,
    version: baseline.version,
    ...(options.spec !== undefined && options.spec !== SESSION_ERA && { spec: options.spec }),
    ...(baseline.command && { command: baseline.command }),
    rateCampaign: { seed: run.seed, runs: run.runs, workload: workloadKey(run.workload) },
    entries: entries.map((e, i) => ({ ...e, runs: runs[i]! })),
  };
}
