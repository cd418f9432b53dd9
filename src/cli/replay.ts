import pc from 'picocolors';
import { loadBaseline } from '../baseline/baseline.ts';
import { entryKey } from '../baseline/buildBaseline.ts';
import { readReplayFile, type CaseOrigin } from '../campaign/replayFile.ts';
import { caseAt, type SimCase } from '../campaign/simCase.ts';
import { workloadArgs, type ReplaySource, type ResolvedReplayOptions } from '../options/index.ts';
import { installedSdk } from '../sdk/load.ts';
import { runChecked } from '../check/index.ts';
import { toMermaid } from '../report/mermaid.ts';
import { formatFinding, traceExcerpt } from '../report/textReport.ts';
import { formatTrace } from '../sim/index.ts';

/** The case a replay source names, with a label for the header line. */
function loadCase(source: ReplaySource): { label: string; simCase: SimCase; origin?: CaseOrigin } {
  switch (source.kind) {
    case 'baseline': {
      const sdk = installedSdk();
      const entries = loadBaseline(sdk.name, sdk.version)?.entries ?? [];
      const entry = entries.find((e) => entryKey(e) === source.entry);
      if (!entry) {
        const near = entries.filter((e) => entryKey(e).startsWith(source.entry.split(' ')[0]!)).map(entryKey);
        throw new Error(
          `replay: no baseline entry "${source.entry}" for ${sdk.name}@${sdk.version}` +
            (near.length ? `; entries of that invariant:\n  ${near.join('\n  ')}` : ''),
        );
      }
      return { label: `baseline="${source.entry}"`, simCase: entry.counterexample };
    }
    case 'file':
      return { label: `file=${source.file}`, ...readReplayFile(source.file) };
    case 'case': {
      const flags = workloadArgs(source.workload);
      return {
        label: `seed=${source.seed} case=${source.caseIndex}${flags.length ? ` ${flags.join(' ')}` : ''}`,
        simCase: caseAt(source.seed, source.caseIndex, source.workload),
      };
    }
  }
}

/** `mcp-sim replay`: the byte-identical run of one case, its findings, trace and diagram. */
export async function replayCommand(options: ResolvedReplayOptions): Promise<number> {
  const { label, simCase, origin } = loadCase(options.source);
  console.log(pc.bold(`mcp-sim replay  ${label}  run seed=${simCase.seed}`));
  console.log(`  tape ${JSON.stringify(simCase.tape)}`);
  console.log(`  scenario ${JSON.stringify(simCase.scenario)}`);
  if (origin) console.log(`  shrunk from case ${origin.caseIndex} of campaign seed ${origin.campaignSeed}: ${origin.command}`);
  const run = { tape: simCase.tape, seed: simCase.seed };
  const { result, findings } = await runChecked(simCase.scenario, run);
  console.log(`  trace hash ${result.hash}, ${result.steps} steps, ${result.virtualMs} ms virtual, outcome ${result.outcome.kind}`);
  console.log('');
  console.log(options.full ? formatTrace(result.trace) : traceExcerpt(result.trace));
  console.log('');
  console.log(findings.length === 0 ? pc.green('no findings') : findings.map(formatFinding).join('\n'));
  if (options.mermaid) console.log(`\n\`\`\`mermaid\n${toMermaid(result.trace, { skipHandshake: true })}\n\`\`\``);
  if (options.selfCheck) {
    const again = await runChecked(simCase.scenario, run);
    if (again.result.hash !== result.hash) {
      console.log(pc.red(`✗ harness.deterministic: second replay gave hash ${again.result.hash}, first ${result.hash}`));
      return 1;
    }
    console.log(pc.green(`self-check: second replay gave the same hash ${result.hash}`));
  }
  return findings.some((f) => f.severity === 'violation') ? 1 : 0;
}
