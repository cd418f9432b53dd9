import type { ClientScenario } from './clientScenarios.ts';
import { CLIENT_INVARIANTS, judgeClientRun, type CallerOption, type ClientBehaviour, type ClientInvariantId, type ClientViolation } from './judgeClient.ts';
import { runClientScenario, type ClientRun, type ClientTransport } from './runClientScenario.ts';

/** One scenario's result over its runs: each violated invariant with its rate, and the behaviour seen most. */
export interface ClientScenarioResult {
  readonly scenario: string;
  readonly question: string;
  readonly transport: ClientTransport;
  readonly runs: number;
  /** Each violated invariant: in how many runs, and the detail of its first run. */
  readonly findings: readonly { readonly invariant: ClientInvariantId; readonly level: string; readonly hits: number; readonly detail: string }[];
  /** The behaviour of each distinct kind, with how many runs showed it. */
  readonly behaviours: readonly { readonly behaviour: ClientBehaviour; readonly runs: number }[];
  readonly notJudged: readonly string[];
  /** stderr text of the SDK's own (warnings, stack traces), first run that had any. */
  readonly stderr: readonly string[];
  readonly wallMs: number;
  /** The first run with a finding (or the first run), kept for the report's frames. */
  readonly sample: ClientRun;
}

export interface CheckClientOptions {
  readonly runs: number;
  readonly options: readonly CallerOption[];
  /** Called after each run (progress on long campaigns). */
  readonly onRun?: (scenario: string, run: number, violations: readonly ClientViolation[]) => void;
}

/**
 * Runs each scenario `runs` times against a test-bed client and aggregates: real time, so each
 * finding carries its reproduction rate (hits of runs), never more than was shown.
 */
export async function checkClient(
  client: readonly string[],
  scenarios: readonly ClientScenario[],
  transport: ClientTransport,
  options: CheckClientOptions,
): Promise<ClientScenarioResult[]> {
  const results: ClientScenarioResult[] = [];
  for (const scenario of scenarios) {
    const hits = new Map<ClientInvariantId, { hits: number; detail: string }>();
    const behaviours = new Map<string, { behaviour: ClientBehaviour; runs: number }>();
    let notJudged: readonly string[] = [];
    // The run shown with the result: the first, unless it was clean and a later one shows every finding.
    let sample: { readonly run: ClientRun; readonly clean: boolean } | undefined;
    let stderr: readonly string[] = [];
    let wallMs = 0;
    for (let i = 0; i < options.runs; i++) {
      const run = await runClientScenario(client, scenario, transport);
      wallMs += run.wallMs;
      const judged = judgeClientRun(scenario, run, options.options);
      notJudged = judged.notJudged;
      if (stderr.length === 0 && run.stderr.length > 0) stderr = run.stderr.slice(0, 20);
      const seen = new Set<ClientInvariantId>();
      for (const v of judged.violations) {
        if (seen.has(v.invariant)) continue;
        seen.add(v.invariant);
        const entry = hits.get(v.invariant) ?? { hits: 0, detail: v.detail };
        entry.hits++;
        hits.set(v.invariant, entry);
      }
      if (!sample || (sample.clean && seen.size > 0 && hits.size === seen.size)) sample = { run, clean: judged.violations.length === 0 };
      const k = JSON.stringify(judged.behaviour);
      const b = behaviours.get(k) ?? { behaviour: judged.behaviour, runs: 0 };
      b.runs++;
      behaviours.set(k, b);
      options.onRun?.(scenario.name, i, judged.violations);
    }
    results.push({
      scenario: scenario.name,
      question: scenario.question,
      transport,
      runs: options.runs,
      findings: [...hits].map(([invariant, h]) => ({ invariant, level: CLIENT_INVARIANTS[invariant].level, hits: h.hits, detail: h.detail })),
      behaviours: [...behaviours.values()].sort((a, b) => b.runs - a.runs),
      notJudged,
      stderr,
      wallMs,
      sample: sample!.run,
    });
  }
  return results;
}
