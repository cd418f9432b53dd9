import { readFileSync } from 'node:fs';
import pc from 'picocolors';
import { loadBaseline } from '../baseline/baseline.ts';
import { entryKey } from '../baseline/buildBaseline.ts';
import { caseAt, type SimCase } from '../campaign/simCase.ts';
import { installedSdk } from './sdkInfo.ts';
import { runChecked } from '../check/index.ts';
import { toMermaid } from '../report/mermaid.ts';
import { formatFinding, traceExcerpt } from '../report/textReport.ts';
import { formatTrace } from '../sim/index.ts';

export interface ReplayFlags {
  baseline?: string;
  seed?: number;
  case?: number;
  full?: boolean;
  mermaid?: boolean;
  selfCheck?: boolean;
}

function loadCase(file: string | undefined, flags: ReplayFlags): { label: string; simCase: SimCase } {
  if (flags.baseline !== undefined) {
    const sdk = installedSdk();
    const entries = loadBaseline(sdk.name, sdk.version)?.entries ?? [];
    const wanted = flags.baseline.trim();
    const entry = entries.find((e) => entryKey(e) === wanted);
    if (!entry) {
      const near = entries.filter((e) => entryKey(e).startsWith(wanted.split(' ')[0]!)).map(entryKey);
      throw new Error(
        `replay: no baseline entry "${flags.baseline}" for ${sdk.name}@${sdk.version}` +
          (near.length ? `; entries of that invariant:\n  ${near.join('\n  ')}` : ''),
      );
    }
    return { label: `baseline="${flags.baseline}"`, simCase: entry.counterexample };
  }
  if (file !== undefined) {
    if (flags.seed !== undefined || flags.case !== undefined) {
      throw new Error('replay: give either a replay file or --seed with --case, not both');
    }
    let parsed: Partial<SimCase>;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<SimCase>;
    } catch (error) {
      throw new Error(`replay: cannot read ${file}: ${(error as Error).message}`);
    }
    if (!parsed.scenario || !Array.isArray(parsed.tape)) {
      throw new Error(`replay: ${file} has no "scenario" and "tape"; it should be a file written by mcp-sim check`);
    }
    return { label: `file=${file}`, simCase: { scenario: parsed.scenario, tape: parsed.tape, seed: parsed.seed ?? 0 } };
  }
  if (flags.seed === undefined || flags.case === undefined) {
    throw new Error('replay: give a replay file, or --seed <campaign seed> --case <index> (both print in check reports)');
  }
  return { label: `seed=${flags.seed} case=${flags.case}`, simCase: caseAt(flags.seed, flags.case) };
}

/** `mcp-sim replay`: the byte-identical run of one case, its findings, trace and diagram. */
export async function replayCommand(file: string | undefined, flags: ReplayFlags): Promise<number> {
  const { label, simCase } = loadCase(file, flags);
  console.log(pc.bold(`mcp-sim replay  ${label}  run seed=${simCase.seed}`));
  console.log(`  tape ${JSON.stringify(simCase.tape)}`);
  console.log(`  scenario ${JSON.stringify(simCase.scenario)}`);
  const options = { tape: simCase.tape, seed: simCase.seed };
  const { result, findings } = await runChecked(simCase.scenario, options);
  console.log(`  trace hash ${result.hash}, ${result.steps} steps, ${result.virtualMs} ms virtual, outcome ${result.outcome.kind}`);
  console.log('');
  console.log(flags.full ? formatTrace(result.trace) : traceExcerpt(result.trace));
  console.log('');
  console.log(findings.length === 0 ? pc.green('no findings') : findings.map(formatFinding).join('\n'));
  if (flags.mermaid) console.log(`\n\`\`\`mermaid\n${toMermaid(result.trace, { skipHandshake: true })}\n\`\`\``);
  if (flags.selfCheck) {
    const again = await runChecked(simCase.scenario, options);
    if (again.result.hash !== result.hash) {
      console.log(pc.red(`✗ harness.deterministic: second replay gave hash ${again.result.hash}, first ${result.hash}`));
      return 1;
    }
    console.log(pc.green(`self-check: second replay gave the same hash ${result.hash}`));
  }
  return findings.some((f) => f.severity === 'violation') ? 1 : 0;
}
