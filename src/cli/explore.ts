import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import pc from 'picocolors';
import { knownCausesFor } from '../baseline/baseline.ts';
import { replayFile } from '../campaign/replayFile.ts';
import { explore, explorePreset, explorePresets } from '../explore/index.ts';
import type { ResolvedExploreOptions } from '../options/index.ts';
import { replayFileCommand } from '../options/replayCaseCommand.ts';
import { exploreJson } from '../report/exploreJson.ts';
import { exploreJunitReport } from '../report/exploreJunit.ts';
import { exploreMarkdownReport } from '../report/exploreMarkdown.ts';
import { formatExploreReport } from '../report/exploreText.ts';
import { ENV_SDK, defaultSdk } from '../sdk/load.ts';
import type { Scenario } from '../sim/index.ts';
import { validateScenario } from '../sim/validate.ts';
import { writeFileAtomic } from '../util/atomicWrite.ts';
import { TOOL } from '../util/toolVersion.ts';
import { writeJsonReport } from './check.ts';
import { EXPLORE_EXIT, EXPLORE_EXIT_HELP } from './commandHelp.ts';

export { EXPLORE_EXIT, EXPLORE_EXIT_HELP };

/** `explore --list`: one preset a line, name first. */
export function listPresets(): string {
  const width = Math.max(...explorePresets.map((p) => p.name.length));
  return explorePresets.map((p) => `${p.name.padEnd(width)}  ${p.description}`).join('\n');
}

/** The scenario an exploration runs, a label for file names, and its scope in virtual time. */
function scenarioOf(source: ResolvedExploreOptions['source']): { scenario: Scenario; label: string; virtualMsMax?: number } {
  if (source.kind === 'preset') {
    const preset = explorePreset(source.name);
    if (!preset) throw new Error(`explore: no preset ${JSON.stringify(source.name)}; known: ${explorePresets.map((p) => p.name).join(', ')} (explore --list)`);
    return { scenario: preset.scenario, label: preset.name, ...(preset.virtualMsMax !== undefined && { virtualMsMax: preset.virtualMsMax }) };
  }
  let scenario: Scenario;
  try {
    scenario = JSON.parse(readFileSync(source.file, 'utf8')) as Scenario;
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    throw new Error(`explore: cannot read --scenario ${source.file}: ${e.code === 'ENOENT' ? 'no such file' : e.message}; give a scenario JSON file (docs/explore.md)`);
  }
  // A replay file holds its scenario under "case" (version 1: "scenario"): accept it too.
  const file = scenario as unknown as { scenario?: Scenario; case?: { scenario?: Scenario } };
  const inner = file.case?.scenario ?? file.scenario;
  if (inner && typeof inner === 'object' && !('profile' in scenario)) scenario = inner;
  validateScenario(scenario);
  return { scenario, label: basename(source.file).replace(/\.json$/, '') };
}

/**
 * Runs `explore`, writes a replay file per finding, prints the report and verdict, writes the
 * JSON, JUnit and Markdown reports asked for (as `check` does); returns the exit code.
 */
export async function exploreCommand(options: ResolvedExploreOptions): Promise<number> {
  const { scenario, label, virtualMsMax } = scenarioOf(options.source);
  const sdk = await defaultSdk();
  const known = knownCausesFor(sdk, [scenario.profile]);
  const result = await explore(scenario, {
    reduce: options.reduce,
    runsMax: options.runsMax,
    depthMax: options.depthMax,
    failOn: options.failOn,
    known,
    sdk,
    ...(virtualMsMax !== undefined && { virtualMsMax }),
  });
  const replays = new Map<string, { file: string; command: string }>();
  result.findings.forEach((f, k) => {
    const file = join(options.reproDir, `explore-${label}-${k + 1}-${f.invariant}.json`);
    const document = replayFile(f.invariant, { scenario, tape: [...f.tape], seed: result.seed }, sdk);
    writeFileAtomic(file, JSON.stringify(document, null, 2) + '\n', { mkdir: true });
    replays.set(f.cause, { file, command: replayFileCommand(file, process.env[ENV_SDK]) });
  });
  const source = options.source.kind === 'preset' ? `preset=${options.source.name}` : `scenario=${options.source.file}`;
  const view = {
    source,
    replays: new Map([...replays].map(([cause, r]) => [cause, r.command])),
    ...(virtualMsMax !== undefined && { virtualMsMax }),
  };
  console.log(formatExploreReport(result, view));
  const failing = result.findings.filter((f) => f.failing);
  console.log(
    result.failed
      ? pc.red(`FAIL: ${failing.length} finding(s) beyond the baseline at --fail-on ${options.failOn} (${failing.map((f) => f.invariant).join(', ')})`)
      : pc.green(`PASS: no finding beyond the baseline of ${sdk.name}@${sdk.version} (--fail-on ${options.failOn})`),
  );
  const exitCode = result.failed ? EXPLORE_EXIT.fail : EXPLORE_EXIT.pass;
  if (options.jsonFile !== undefined) {
    writeJsonReport(
      options.jsonFile,
      exploreJson(result, { source: options.source, scenario, failOn: options.failOn, replays, exitCode, ...(virtualMsMax !== undefined && { virtualMsMax }) }),
    );
  }
  const madeWith = { tool: TOOL, sdk: result.sdk };
  if (options.junitFile !== undefined) writeFileAtomic(options.junitFile, exploreJunitReport(result, { ...view, madeWith }), { mkdir: true });
  if (options.markdownFile !== undefined) {
    writeFileAtomic(options.markdownFile, exploreMarkdownReport(result, { ...view, madeWith, failOn: options.failOn }) + '\n', { mkdir: true });
  }
  return exitCode;
}
