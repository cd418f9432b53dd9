import { join } from 'node:path';
import pc from 'picocolors';
import { replayFile } from '../campaign/replayFile.ts';
import { bisectReleases, probeRelease, showsTargetOn, type BisectTarget, type Probe } from '../matrix/bisect.ts';
import type { MatrixCampaign, MatrixRelease } from '../matrix/causeMatrix.ts';
import { causeFileName } from '../matrix/matrixReplayFiles.ts';
import { invariants, type InvariantId } from '../model/invariants.ts';
import { replayFileCommand } from '../options/replayCaseCommand.ts';
import { publishedReleases } from '../sdk/install.ts';
import { writeFileAtomic } from '../util/atomicWrite.ts';
import { releaseOf } from './matrix.ts';

export { BISECT_EXIT_HELP } from './commandHelp.ts';

/** What `bisect` is given. */
export interface BisectRequest extends BisectTarget {
  readonly good: string;
  readonly bad: string;
  /** The ordered releases to search (oldest first); default: the npm registry's published releases. */
  readonly releases?: readonly string[];
  readonly out: string;
}

const stderr = (line: string) => void process.stderr.write(`${line}\n`);
const sdkArg = (choice: string) => (choice === 'installed' ? undefined : choice);

/**
 * `mcp-sim bisect --invariant ID [--cause C] --good V1 --bad V2`: the first release between V1
 * and V2 whose campaign shows the finding (V1 older) or no longer shows it (V1 newer: a fix), the
 * minimal counterexample from the release that shows it, and the same case run on the release on
 * the other side of the change (the counterfactual): a replay file and command for each.
 */
export async function bisectCommand(request: BisectRequest, campaign: MatrixCampaign): Promise<number> {
  const id = request.invariant.split('/')[0]!;
  if (!invariants.has(id as InvariantId)) throw new Error(`bisect: --invariant ${request.invariant}: no such invariant (docs/invariants.md lists them)`);
  const all = request.releases ?? (await publishedReleases());
  const [goodAt, badAt] = [all.indexOf(request.good), all.indexOf(request.bad)];
  const source = request.releases ? '--releases' : 'the published releases';
  if (goodAt < 0 || badAt < 0) throw new Error(`bisect: ${goodAt < 0 ? `--good ${request.good}` : `--bad ${request.bad}`} is not one of ${source}`);
  if (goodAt === badAt) throw new Error(`bisect: --good and --bad name the same release, ${request.good}`);
  // Good before bad: where the finding appears. Good after bad: where it disappears (a fix).
  const appears = goodAt < badAt;
  const between = all.slice(Math.min(goodAt, badAt), Math.max(goodAt, badAt) + 1);
  const releases = new Map<string, MatrixRelease>(between.map((c) => [c, releaseOf(c, stderr)]));
  const target = { invariant: request.invariant, ...(request.cause !== undefined && { cause: request.cause }) };
  console.log(pc.bold(`mcp-sim bisect  ${request.invariant}${request.cause ? ` (${request.cause})` : ''}  seed=${campaign.seed}`));
  console.log(`  searching     the first release ${appears ? 'that shows it' : 'that no longer shows it (a fix)'}`);
  console.log(`  runs          ${campaign.runs} cases per release probed`);
  console.log(`  releases      ${between.length}, ${between[0]} … ${between.at(-1)}: at most ${Math.ceil(Math.log2(Math.max(between.length - 1, 1))) + 2} probes`);
  const verdictOf = (p: Probe) =>
    p.verdict === 'bad' ? `bad (${p.cause!.runs} of ${p.column.status === 'ran' ? p.column.runs : '?'} runs, cause ${p.cause!.variant} ${p.cause!.shape})` : p.verdict === 'good' ? 'good' : `cannot be driven: ${p.column.status === 'cannot' ? p.column.reason : ''}`;
  const outcome = await bisectReleases(between, (r) => probeRelease(releases.get(r)!, campaign, target), {
    appears,
    onProbe: (p, step) => console.log(`  probe ${step}: ${p.release}: ${verdictOf(p)}`),
  });

  if (outcome.kind === 'cannot-drive') throw new Error(`bisect: ${outcome.probe.release} cannot be driven: ${outcome.probe.column.status === 'cannot' ? outcome.probe.column.reason : ''}`);
  if (outcome.kind === 'good-is-bad') {
    console.log(pc.red(`--good ${request.good} shows ${request.invariant} (${outcome.probe.cause!.runs} runs): nothing to search; give a good release without it`));
    return 1;
  }
  if (outcome.kind === 'bad-is-good') {
    console.log(pc.red(`--bad ${request.bad} does not show ${request.invariant}${request.cause ? ` (${request.cause})` : ''} in ${campaign.runs} cases: nothing to search; more --runs, or another --cause`));
    return 1;
  }
  const { first, before, skipped } = outcome;
  // The minimal case comes from the release that shows the finding; the counterfactual runs it on the one that does not.
  const [shows, lacks] = appears ? [first, before] : [before, first];
  const cause = shows.cause!;
  const [showsSdk, lacksSdk] = await Promise.all([releases.get(shows.release)!.load(), releases.get(lacks.release)!.load()]);
  const onShows = await showsTargetOn(showsSdk, cause.counterexample, target);
  const onLacks = await showsTargetOn(lacksSdk, cause.counterexample, target);
  const name = causeFileName(cause.key).replace(/\.json$/, '');
  const showsFile = join(request.out, `${name}.${appears ? 'first-bad' : 'last-bad'}.json`);
  const lacksFile = join(request.out, `${name}.${appears ? 'release-before' : 'first-fixed'}.json`);
  writeFileAtomic(showsFile, JSON.stringify(replayFile(cause.invariant, cause.counterexample, showsSdk), null, 2) + '\n', { mkdir: true });
  // The release without it did not find it: its file names no invariant to expect, and replay prints what that release does with the case.
  const { invariant: _expected, ...counterfactual } = replayFile(cause.invariant, cause.counterexample, lacksSdk);
  writeFileAtomic(lacksFile, JSON.stringify(counterfactual, null, 2) + '\n', { mkdir: true });
  const said = (r: { reproduced: boolean }) => (r.reproduced ? 'reproduces' : 'does not reproduce');
  const named = (p: Probe, sdk: { name: string; version: string }) => `${p.release} (${sdk.name}@${sdk.version})`;
  const runsOf = (p: Probe) => (p.column.status === 'ran' ? p.column.runs : 0);
  console.log('');
  const showsLine = `${named(shows, showsSdk)}, ${cause.runs} of ${runsOf(shows)} runs; cause ${cause.key}`;
  console.log(pc.bold(appears ? `first bad release: ${showsLine}` : `first fixed release: ${named(first, lacksSdk)}; the last release with it: ${showsLine}`));
  console.log(`  ${cause.explanation}`);
  console.log(`  minimal counterexample: ${cause.counterexample.scenario.actions.length} action(s), tape [${cause.counterexample.tape.join(',')}]: ${said(onShows)} on ${shows.release}`);
  console.log(`    ${replayFileCommand(showsFile, sdkArg(shows.release))}`);
  console.log(`${appears ? 'the release before' : 'the first fixed release'}: ${named(lacks, lacksSdk)}: the same case ${said(onLacks)}`);
  console.log(`    ${replayFileCommand(lacksFile, sdkArg(lacks.release))}`);
  if (skipped.length > 0) console.log(pc.yellow(`  releases between them that cannot be driven (the change may be in any of them): ${skipped.join(', ')}`));
  if (onLacks.reproduced) {
    console.log(pc.yellow(`inconclusive: the minimal case shows ${request.invariant} on ${lacks.release} too, whose campaign missed it: the finding does not follow release order for ${campaign.runs} cases (more --runs)`));
    return 3;
  }
  if (skipped.length > 0) return 3;
  return 0;
}
