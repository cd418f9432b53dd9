import { readdirSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import pc from 'picocolors';
import { baselinePath, loadBaselines } from '../baseline/baseline.ts';
import { entryKey } from '../baseline/buildBaseline.ts';
import { readReplayFile, simCaseOf, type CaseOrigin } from '../campaign/replayFile.ts';
import { caseAt, type SimCase } from '../campaign/simCase.ts';
import type { InvariantId } from '../model/invariants.ts';
import { workloadArgs, type ReplaySource, type ResolvedReplayOptions } from '../options/index.ts';
import { madeWithArg, madeWithMismatch, replayCaseCommand, replayFileCommand, replayFlags, type MadeWith } from '../options/replayCaseCommand.ts';
import { defaultSdk } from '../sdk/load.ts';
import { runChecked } from '../check/index.ts';
import { toMermaid } from '../report/mermaid.ts';
import { emittedTest } from '../report/emitTest.ts';
import { REPORT_SCHEMA_VERSION } from '../report/jsonReport.ts';
import { writeJsonReport } from './check.ts';
import { writeFileAtomic } from '../util/atomicWrite.ts';
import { formatFinding, traceExcerpt } from '../report/textReport.ts';
import { formatTrace } from '../sim/index.ts';
import { REPLAY_EXIT, REPLAY_EXIT_HELP } from './commandHelp.ts';
import { TOOL, packageId, type PackageId } from '../util/toolVersion.ts';

export { REPLAY_EXIT, REPLAY_EXIT_HELP };

/** The case a replay source names, with a label for the header line and what it should show. */
interface LoadedCase {
  readonly label: string;
  readonly simCase: SimCase;
  readonly origin?: CaseOrigin;
  /** The invariant the source says the case shows (a replay file's, a baseline entry's). */
  readonly expect?: InvariantId;
  /** The versions the source says made the case (a replay file's), and how to name the source. */
  readonly madeWith?: MadeWith;
  readonly legacy?: boolean;
}

function loadCase(source: ReplaySource, sdk: PackageId): LoadedCase {
  switch (source.kind) {
    case 'baseline': {
      // Every rule set's baseline of the release: entries of two rule sets differ by variant (their profile), so a name finds one.
      const baselines = loadBaselines(sdk.name, sdk.version);
      const entries = baselines.flatMap((b) => b.entries);
      const entry = entries.find((e) => entryKey(e) === source.entry);
      if (!entry) throw new Error(noSuchEntry(source.entry, sdk, entries.map(entryKey), baselines.length > 0));
      return { label: `baseline="${source.entry}" of ${packageId(sdk)}`, simCase: entry.counterexample, expect: entry.invariant };
    }
    case 'file': {
      const file = readReplayFile(source.file);
      const { origin, invariant, legacy } = file;
      const madeWith = file.madeWith?.sdk ? { tool: file.madeWith.tool, sdk: file.madeWith.sdk } : undefined;
      return {
        label: `file=${source.file}`,
        simCase: simCaseOf(file),
        ...(origin && { origin }),
        ...(invariant && { expect: invariant }),
        ...(madeWith && { madeWith }),
        ...(legacy && { legacy }),
      };
    }
    case 'case': {
      const flags = workloadArgs(source.workload);
      return {
        label: `seed=${source.seed} case=${source.caseIndex}${flags.length ? ` ${flags.join(' ')}` : ''}`,
        simCase: caseAt(source.seed, source.caseIndex, source.workload),
      };
    }
  }
}

/**
 * Why a baseline entry cannot be replayed: the installed SDK has no baseline, or its baseline has
 * no such entry. When the baseline of another version of the SDK has it, says so: it would be
 * another case (or none) under the installed release, never that one.
 */
function noSuchEntry(entry: string, sdk: PackageId, keys: readonly string[], hasBaseline: boolean): string {
  const elsewhere = otherBaselineVersions(sdk).filter((v) => loadBaselineQuietly(sdk.name, v)?.entries.some((e) => entryKey(e) === entry));
  if (elsewhere.length > 0) {
    const other = `${sdk.name}@${elsewhere[elsewhere.length - 1]}`;
    return (
      `replay refused: "${entry}" is an entry of the baseline of ${elsewhere.map((v) => `${sdk.name}@${v}`).join(', ')}, but ${packageId(sdk)} is installed` +
      `${hasBaseline ? ', whose baseline has no such entry' : ''}. Fix: replay it with ${other} (npm i ${other}), or pick an entry of ${packageId(sdk)} (npx mcp-sim baseline --table).`
    );
  }
  if (!hasBaseline) return `replay: no baseline for ${packageId(sdk)}, so no entry "${entry}"; npx mcp-sim baseline --update writes one`;
  const near = keys.filter((k) => k.startsWith(`${entry.split(' ')[0]!} `));
  return `replay: no baseline entry "${entry}" for ${packageId(sdk)}` + (near.length ? `; entries of that invariant:\n  ${near.join('\n  ')}` : '');
}

/** Versions of `sdk`'s package other than its own that have a baseline file (of any rule set: `<version>[+<spec>]`). */
function otherBaselineVersions(sdk: PackageId): string[] {
  const prefix = basename(baselinePath(sdk.name, '')).replace(/\.json$/, '');
  try {
    const versions = readdirSync(dirname(baselinePath(sdk.name, sdk.version)))
      // Baselines only: a release's kept shrinks (`<version>.shrinks.json`) sit beside them.
      .filter((f) => f.startsWith(prefix) && f.endsWith('.json') && !f.endsWith('.shrinks.json'))
      .map((f) => f.slice(prefix.length, -'.json'.length).split('+')[0]!);
    return [...new Set(versions)].filter((v) => v !== sdk.version).sort();
  } catch {
    return [];
  }
}

function loadBaselineQuietly(pkg: string, version: string) {
  try {
    return { entries: loadBaselines(pkg, version).flatMap((b) => b.entries) };
  } catch {
    return undefined;
  }
}

/**
 * `mcp-sim replay`: the byte-identical run of one case, its findings, trace and diagram. Refuses
 * (throws, exit 2) a case made with other mcp-sim or SDK versions than these; when the case names
 * the invariant it should show, ends with "reproduced: <invariant>" or "NOT reproduced: …" (exit 3).
 */
export async function replayCommand(options: ResolvedReplayOptions): Promise<number> {
  const adapter = await defaultSdk();
  const current: MadeWith = { tool: TOOL, sdk: { name: adapter.name, version: adapter.version } };
  const loaded = loadCase(options.source, current.sdk);
  const { label, simCase, origin } = loaded;

  // Never run something else: the versions the coordinates name must be these.
  const recorded = [
    options.madeWith && { madeWith: options.madeWith, what: `this case (${replayFlags.madeWith})` },
    loaded.madeWith && { madeWith: loaded.madeWith, what: options.source.kind === 'file' ? options.source.file : 'the case' },
  ];
  for (const r of recorded) {
    const refused = r && madeWithMismatch(r.madeWith, current, r.what);
    if (refused) throw new Error(refused);
  }
  if (options.expect && loaded.expect && options.expect !== loaded.expect) {
    throw new Error(
      `replay: ${replayFlags.expect} ${options.expect}, but ${options.source.kind === 'file' ? options.source.file : 'the baseline entry'} shows ${loaded.expect}; drop ${replayFlags.expect} or make it ${loaded.expect}`,
    );
  }
  const expect = options.expect ?? loaded.expect;
  if (options.emitTest && !expect) {
    throw new Error(`replay: --emit-test needs the invariant the test is about: give ${replayFlags.expect} INVARIANT (check prints it with each replay command)`);
  }
  if (loaded.legacy) {
    process.stderr.write(
      `warning: ${label.replace(/^file=/, '')} has no schemaVersion (it is older than the field): the versions that made it are unknown, so it replays unchecked ` +
        `with ${packageId(current.tool)} and ${packageId(current.sdk)}; run mcp-sim check again for a file that pins them\n`,
    );
  }

  const checked = options.madeWith ?? loaded.madeWith;
  console.log(pc.bold(`mcp-sim replay  ${label}  run seed=${simCase.seed}`) + (checked ? pc.dim(`  made with ${madeWithArg(checked)}`) : ''));
  console.log(`  tape ${JSON.stringify(simCase.tape)}`);
  console.log(`  scenario ${JSON.stringify(simCase.scenario)}`);
  if (origin) console.log(`  shrunk from case ${origin.caseIndex} of campaign seed ${origin.campaignSeed}: ${origin.command}`);
  const run = { tape: simCase.tape, seed: simCase.seed, sdk: adapter };
  const { result, findings } = await runChecked(simCase.scenario, run);
  console.log(`  trace hash ${result.hash}, ${result.steps} steps, ${result.virtualMs} ms virtual, outcome ${result.outcome.kind}`);
  console.log('');
  console.log(options.full ? formatTrace(result.trace) : traceExcerpt(result.trace));
  console.log('');
  console.log(findings.length === 0 ? pc.green('no findings') : findings.map(formatFinding).join('\n'));
  if (options.mermaid) console.log(`\n\`\`\`mermaid\n${toMermaid(result.trace, { skipHandshake: true })}\n\`\`\``);
  let deterministic = true;
  if (options.selfCheck) {
    const again = await runChecked(simCase.scenario, run);
    deterministic = again.result.hash === result.hash;
    console.log(
      deterministic
        ? pc.green(`self-check: second replay gave the same hash ${result.hash}`)
        : pc.red(`✗ harness.deterministic: second replay gave hash ${again.result.hash}, first ${result.hash}`),
    );
  }
  const violation = !deterministic || findings.some((f) => f.severity === 'violation');
  const finish = (code: number): number => {
    if (options.jsonFile) {
      const reproduced = expect === undefined ? undefined : findings.some((f) => f.invariant === expect);
      writeJsonReport(options.jsonFile, {
        schemaVersion: REPORT_SCHEMA_VERSION,
        kind: 'replay',
        tool: current.tool,
        sdk: current.sdk,
        source: options.source,
        ...(expect !== undefined && { expect }),
        case: simCase,
        verdict: { result: reproduced === undefined ? (violation ? 'violation' : 'pass') : reproduced ? 'reproduced' : 'not-reproduced', exitCode: code, deterministic },
        traceHash: result.hash,
        steps: result.steps,
        virtualMs: result.virtualMs,
        outcome: result.outcome.kind,
        findings: findings.map((f) => ({ invariant: f.invariant, level: f.level, section: f.section, message: f.message, ...(f.clause !== undefined && { clause: f.clause }) })),
        trace: formatTrace(result.trace),
        mermaid: toMermaid(result.trace, { skipHandshake: true }),
      });
    }
    return code;
  };
  if (options.emitTest && expect) {
    const message = findings.find((f) => f.invariant === expect)?.message;
    const source = options.source;
    const origin =
      source.kind === 'file'
        ? replayFileCommand(source.file)
        : source.kind === 'case'
          ? replayCaseCommand(source.seed, source.caseIndex, source.workload, { expect, madeWith: current })
          : `npx mcp-sim replay --baseline "${source.entry}"`;
    writeFileAtomic(options.emitTest, emittedTest({ simCase, invariant: expect, message, origin, madeWith: current, expectation: options.emitExpect }), { mkdir: true });
    console.log(`emitted test: ${options.emitTest} (fails ${options.emitExpect === 'absent' ? `while ${expect} reproduces` : `once ${expect} is fixed`}; run it with npx vitest run ${options.emitTest})`);
  }
  if (expect === undefined) return finish(violation ? REPLAY_EXIT.violation : REPLAY_EXIT.pass);

  if (findings.some((f) => f.invariant === expect)) {
    console.log(pc.bold(`reproduced: ${expect}`));
    return finish(violation ? REPLAY_EXIT.violation : REPLAY_EXIT.pass);
  }
  const shown = [...new Set(findings.map((f) => f.invariant))];
  console.log(
    pc.red(
      pc.bold(`NOT reproduced: ${expect}`) +
        ` (exit ${REPLAY_EXIT.notReproduced}): this run shows ${shown.length ? `only ${shown.join(', ')}` : 'no finding'}; ${notReproducedHint(options.source, checked)}`,
    ),
  );
  return finish(REPLAY_EXIT.notReproduced);
}

/** What a finding that did not reproduce means, for this source. */
function notReproducedHint(source: ReplaySource, checked: MadeWith | undefined): string {
  if (source.kind === 'baseline') return 'the entry is stale: update the baseline (npx mcp-sim baseline --update)';
  if (!checked) {
    return `the versions that made the case are unknown (${source.kind === 'file' ? 'an older replay file' : `no ${replayFlags.madeWith}`}): it may come from another mcp-sim or SDK`;
  }
  return 'under the versions that found it, this is a defect of the harness (nondeterminism or a lost coordinate): please report it';
}
