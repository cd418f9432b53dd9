/**
 * The case table of one SDK: every case of `check`'s default campaign (seed and workload as
 * `check` resolves them, cases 0..runs-1), run and judged in this process on the SDK that
 * `defaultSdk()` loads (so `MCP_SIM_SDK` picks a mutant), without shrinking. For each case: its
 * trace hash and its findings, each with whether the baseline explains it by cause (an entry of
 * the same invariant, transport variant and features, `src/baseline/known.ts`).
 *
 * `mutants/run.ts` compares a survivor's table with the pristine SDK's, case by case: a mutant
 * whose traces are all the same was never exercised; one whose traces differ but whose findings
 * do not shows what the oracle lacks. This measures; it decides no verdict of `check`.
 *
 *   MCP_SIM_SDK=<copy> node --import tsx mutants/cases.ts --runs N --out FILE
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadBaseline } from '../src/baseline/baseline.ts';
import { knownFinding } from '../src/baseline/known.ts';
import { caseAt } from '../src/campaign/simCase.ts';
import { runChecked } from '../src/check/runChecked.ts';
import { resolveCampaignOptions } from '../src/options/index.ts';
import { defaultSdk } from '../src/sdk/load.ts';

export interface CaseFinding {
  readonly invariant: string;
  readonly severity: string;
  /** What the rule said (tells two findings of one invariant apart). */
  readonly message: string;
  /** The baseline explains it by cause, not only by invariant id. */
  readonly knownByCause: boolean;
}

export interface CaseRow {
  readonly k: number;
  readonly hash: string;
  readonly findings: readonly CaseFinding[];
}

export interface CaseTable {
  readonly sdk: { readonly name: string; readonly version: string; readonly root: string };
  readonly seed: number;
  readonly rows: readonly CaseRow[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string' }, out: { type: 'string' } }, strict: true });
  if (values.out === undefined) throw new Error('--out FILE is required');
  // The campaign `check` runs by default (no MCP_SIM_RUNS / MCP_SIM_SEED), up to --runs cases.
  const options = resolveCampaignOptions({}, {});
  const runs = values.runs === undefined ? options.runs : Number(values.runs);
  const sdk = await defaultSdk();
  const baseline = loadBaseline(sdk.name, sdk.version);
  const rows: CaseRow[] = [];
  for (let k = 0; k < runs; k++) {
    const c = caseAt(options.seed, k, options.workload);
    const { result, findings } = await runChecked(c.scenario, { tape: c.tape, seed: c.seed, sdk });
    rows.push({
      k,
      hash: result.hash,
      findings: findings.map((f) => ({ invariant: f.invariant, severity: f.severity, message: f.message, knownByCause: knownFinding(baseline, c, f) })),
    });
  }
  const table: CaseTable = { sdk: { name: sdk.name, version: sdk.version, root: sdk.root }, seed: options.seed, rows };
  writeFileSync(values.out, JSON.stringify(table) + '\n');
}

main().catch((error: unknown) => {
  console.error(`mutants/cases: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 2;
});
