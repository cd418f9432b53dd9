import fc from 'fast-check';
import { join } from 'node:path';
import { loadBaseline, type Baseline } from '../src/baseline/baseline.ts';
import { knownFinding } from '../src/baseline/known.ts';
import type { AdapterFaultKind } from '../src/sim/adapterFaults.ts';
import type { SimCase } from '../src/campaign/simCase.ts';
import { runChecked } from '../src/check/index.ts';
import { installedSdk } from '../src/sdk/load.ts';
import type { Finding } from '../src/model/finding.ts';
import { toMermaid } from '../src/report/mermaid.ts';
import { formatFinding, traceExcerpt } from '../src/report/textReport.ts';
import { propertyArbitrary } from '../src/baseline/propertyCases.ts';
import { replayFile } from '../src/campaign/replayFile.ts';
import { DEFAULT_REPRO_DIR, resolvePropertyOptions, type ResolvedPropertyOptions } from '../src/options/index.ts';
import { writeFileAtomic } from '../src/util/atomicWrite.ts';

/** The suite's options, resolved once: seed and runs follow `MCP_SIM_SEED` and `MCP_SIM_RUNS`. */
export const propertyOptions: ResolvedPropertyOptions = resolvePropertyOptions();
/** The suite's seed and runs per property, for test titles. */
export const PROPERTY_SEED = propertyOptions.seed;
export const PROPERTY_RUNS = propertyOptions.runs;

const sdk = installedSdk();
export const baseline: Baseline | undefined = loadBaseline(sdk.name, sdk.version);

/**
 * A regression to inject into every generated scenario (`MCP_SIM_INJECT_FAULT=drop-incoming-cancel
 * npm test`): proves the suite fails, readably, when the SDK side breaks.
 */
const injected = process.env.MCP_SIM_INJECT_FAULT as AdapterFaultKind | undefined;
const inject = (c: SimCase): SimCase =>
  injected
    ? { ...c, scenario: { ...c.scenario, adapterFaults: [{ side: 'client', fault: injected }, { side: 'server', fault: injected }] } }
    : c;

/**
 * Findings of `family` that neither the baseline nor the scripted handlers' own conduct explain.
 * A knock-on (`rootCause`) counts under its root cause, as in a campaign: known when its root is
 * (`knownFinding`), and otherwise reported once, by the property of the root's family (which
 * fails on a finding of any severity, so no knock-on needs to stand on its own here).
 */
export function newFindings(c: SimCase, findings: readonly Finding[], family: string): Finding[] {
  return findings.filter((f) => f.invariant.startsWith(`${family}.`) && !knownFinding(baseline, c, f) && f.rootCause === undefined);
}

/**
 * A report a person can act on: the invariant, level and section, the trace, a sequence diagram
 * and one replay command. Written to `DEFAULT_REPRO_DIR` (`.mcp-sim/repro/`) so the command works as printed.
 */
async function explain(c: SimCase, family: string, found: readonly Finding[]): Promise<string> {
  const { result } = await runChecked(c.scenario, { tape: c.tape, seed: c.seed });
  const dir = DEFAULT_REPRO_DIR;
  const file = join(dir, `property-${family}-${found[0]!.invariant}.json`);
  writeFileAtomic(file, JSON.stringify(replayFile(found[0]!.invariant, c, sdk), null, 2) + '\n', { mkdir: true });
  const ready = result.trace.find((e) => e.kind === 'ready')?.i ?? 0;
  return [
    `new ${family} finding(s) on ${sdk.name}@${sdk.version}: no baseline entry covers this case`,
    ...found.map((f) => `  ${formatFinding(f)}`),
    '',
    'trace after the handshake:',
    traceExcerpt(result.trace, ready + 1),
    '',
    '```mermaid',
    toMermaid(result.trace, { skipHandshake: true }),
    '```',
    '',
    `replay: npx mcp-sim replay ${file} --mermaid`,
  ].join('\n');
}

/**
 * The property for one invariant family: over generated scenarios and schedule tapes, no finding
 * of that family beyond the baseline. fast-check shrinks a failure to a minimal race and prints
 * its seed and path; the thrown message carries the trace, diagram and replay command.
 */
export async function assertFamily(family: string, options: ResolvedPropertyOptions = propertyOptions): Promise<void> {
  await fc.assert(
    fc.asyncProperty(propertyArbitrary(options).map(inject), async (c) => {
      const { findings } = await runChecked(c.scenario, { tape: c.tape, seed: c.seed });
      const fresh = newFindings(c, findings, family);
      if (fresh.length > 0) throw new Error(await explain(c, family, fresh));
    }),
    { seed: options.seed, numRuns: options.runs, interruptAfterTimeLimit: options.timeMsMax },
  );
}
