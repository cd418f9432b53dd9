/**
 * Joining the JSON reports of a campaign's shards (`check --shard I/N --json FILE`, one per CI
 * job) into the report the whole campaign gives in one process (`mcp-sim merge`). The shards'
 * tallies merge in case order with `mergeTally`, exactly as a campaign merges its workers'
 * slices; each finding's counterexample is the one of the shard that holds its first case,
 * which shrank that very case (a shard shrinks the first case of each invariant it found).
 *
 * Only shards of one campaign merge: same seed, workload, run count, shard count, SDK and
 * mcp-sim versions, settings; every shard exactly once, each run to its end.
 */
import { coverage as emptyCoverage } from '../model/coverage.ts';
import type { InvariantId } from '../model/invariants.ts';
import { workloadKey, type ResolvedWorkload } from '../options/index.ts';
import type { PackageId } from '../util/toolVersion.ts';
import { NO_KNOWN_CAUSES, type KnownCauses } from './knownCauses.ts';
import { mergeTally, shrunkFrom, summarize, type CampaignReport, type CampaignTally, type FindingSummary } from './runCampaign.ts';
import { copyEntry, type KnockOnSummary } from './rootCauses.ts';
import { formatRange, shardRange } from './shard.ts';

/** A campaign report as `check --json` writes it: the report and the SDK and mcp-sim that made it. */
export type CampaignDocument = CampaignReport & { readonly sdk: PackageId; readonly tool: PackageId };

/** A shard's report and the file it came from (named in every message). */
export interface ShardInput {
  readonly file: string;
  readonly document: unknown;
}

/** Shards that do not make one campaign; the message says which files and why. */
export class MergeError extends Error {
  override name = 'MergeError';
}

type Shard = CampaignDocument & { readonly shard: NonNullable<CampaignReport['shard']>; readonly file: string };

/**
 * The report of the whole campaign, from the reports of all its shards (in any order), with
 * the SDK and mcp-sim versions they were made with; judged against `knownFor(sdk, profiles)` (the shards' SDK's
 * baseline of the rule set their profiles speak) for the rate check; each finding's new causes are the shards' own. Throws a `MergeError` for files that are
 * not shard reports, shards of different campaigns, overlapping, missing or unfinished shards.
 */
export function mergeShards(inputs: readonly ShardInput[], knownFor?: (sdk: PackageId, profiles: ResolvedWorkload['profiles']) => KnownCauses): { readonly report: CampaignReport; readonly sdk: PackageId; readonly tool: PackageId } {
  if (inputs.length === 0) throw new MergeError('merge: no shard reports given; pass the --json files of every shard (check --shard I/N --json FILE)');
  const shards = inputs.map(asShard);
  const first = shards[0]!;
  for (const s of shards.slice(1)) sameCampaign(first, s);
  const byIndex = new Map<number, Shard>();
  for (const s of shards) {
    const twin = byIndex.get(s.shard.index);
    if (twin) throw new MergeError(`merge: overlapping shards: ${twin.file} and ${s.file} are both shard ${s.shard.index}/${s.shard.count} (${formatRange(s.shard)})`);
    byIndex.set(s.shard.index, s);
  }
  const { count } = first.shard;
  const planned = first.planned!;
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0) {
    const list = missing.map((i) => `${i}/${count} (${formatRange(shardRange(i, count, planned))})`).join(', ');
    throw new MergeError(`merge: missing shard(s) ${list} of the ${planned}-run campaign of seed ${first.seed}; got ${shards.length} of ${count}`);
  }
  const ordered = [...byIndex.values()].sort((a, b) => a.shard.index - b.shard.index);
  const tally = ordered.map(tallyOf).reduce((into, next) => mergeTally(into, next));
  const sum = (key: 'wallMs' | 'runWallMs') => ordered.reduce((n, s) => n + (s[key] ?? 0), 0);
  const merged = summarize(tally, {
    seed: first.seed,
    workload: first.workload,
    planned,
    selfCheck: first.selfCheck!,
    shrink: first.shrink!,
    // The shards' own times added up: the time one process would have taken, roughly.
    wallMs: sum('wallMs'),
    runWallMs: sum('runWallMs'),
    known: knownFor?.(first.sdk, first.workload.profiles) ?? NO_KNOWN_CAUSES,
  });
  const findings = merged.findings.map((f) => {
    const from = shrunkFrom(f);
    const holder = ordered.find((s) => s.shard.from <= from && from < s.shard.to)!;
    const counterexample = holder.findings.find((x) => x.invariant === f.invariant)?.counterexample;
    return counterexample ? { ...f, counterexample } : f;
  });
  return { report: { ...merged, findings }, sdk: first.sdk, tool: first.tool };
}

/** The tally a shard's report stands for (its findings' runs, first cases and examples; its totals). */
function tallyOf(s: Shard): CampaignTally {
  const coverage = emptyCoverage([]);
  return {
    from: s.shard.from,
    to: s.shard.to,
    steps: s.steps,
    virtualMs: s.virtualMs,
    outcomes: { ...s.outcomes },
    coverage: { transitions: { ...s.coverage.transitions }, races: { ...coverage.races, ...s.coverage.races } },
    found: new Map(
      s.findings.map((f: FindingSummary) => [
        f.invariant as InvariantId,
        copyEntry({
          example: f.example,
          runs: f.runs,
          firstCase: f.firstCase,
          ...(f.knockOns && { knockOns: f.knockOns as KnockOnSummary[] }),
          ...(f.fresh && { fresh: { ...f.fresh } }),
        }),
      ]),
    ),
    causeRuns: [...(s.causeRuns ?? [])],
    nondeterministic: [...s.nondeterministic],
  };
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isPackage = (x: unknown): x is PackageId => isObject(x) && typeof x['name'] === 'string' && typeof x['version'] === 'string';

/** `input` as a finished shard's report, or a `MergeError` saying what it lacks. */
function asShard(input: ShardInput): Shard {
  const d = input.document;
  const not = (what: string) => new MergeError(`merge: ${input.file} ${what}`);
  if (!isObject(d)) throw not('is not a campaign report (not a JSON object)');
  const report = ['seed', 'runs', 'steps', 'virtualMs'].every((k) => typeof d[k] === 'number') && isObject(d['workload']) && Array.isArray(d['findings']) &&
    isObject(d['outcomes']) && isObject(d['coverage']) && Array.isArray(d['nondeterministic']);
  if (!report) throw not('is not a campaign report of mcp-sim check --json');
  if (!isPackage(d['sdk']) || !isPackage(d['tool']) || typeof d['planned'] !== 'number' || typeof d['selfCheck'] !== 'boolean' || typeof d['shrink'] !== 'boolean') {
    throw not('lacks the campaign identity merge needs (sdk, tool, planned, selfCheck, shrink): write it with this mcp-sim, check --shard I/N --json FILE');
  }
  const shard = d['shard'];
  if (!isObject(shard)) throw not(`is the report of a whole campaign, not of a shard: run check with --shard I/N (and the same --seed and --runs) for each shard`);
  const { index, count, from, to } = shard as Record<string, unknown>;
  if (![index, count, from, to].every((n) => typeof n === 'number' && Number.isSafeInteger(n))) throw not('has a malformed "shard" field (index, count, from, to)');
  const planned = d['planned'] as number;
  const [I, N] = [index as number, count as number];
  if (!(I >= 1 && I <= N && N <= planned)) throw not(`has shard ${I}/${N}, which a ${planned}-run campaign does not have`);
  const expected = shardRange(I, N, planned);
  if (d['stopped'] !== undefined) {
    const why = d['stopped'] === 'time-limit' ? 'cut by its time limit' : 'interrupted (Ctrl-C)';
    throw not(`is shard ${I}/${N}, ${why} after ${String(d['runs'])} of its ${expected.to - expected.from} runs: run that shard again to its end`);
  }
  if (expected.from !== from || expected.to !== to || d['runs'] !== expected.to - expected.from) {
    throw not(`claims to be shard ${I}/${N} of ${planned} runs, and does not hold that shard's ${formatRange(expected)}`);
  }
  return { ...(d as unknown as CampaignDocument), shard: { index: index as number, count: count as number, from: from as number, to: to as number }, file: input.file };
}

/** Throws unless `b` is a shard of the campaign `a` is a shard of. */
function sameCampaign(a: Shard, b: Shard): void {
  const differ = (what: string, x: unknown, y: unknown) => {
    throw new MergeError(`merge: shards of different campaigns: ${a.file} has ${what} ${x}, ${b.file} has ${what} ${y}`);
  };
  const pkg = (p: PackageId) => `${p.name}@${p.version}`;
  if (a.seed !== b.seed) differ('seed', a.seed, b.seed);
  if (workloadKey(a.workload) !== workloadKey(b.workload)) differ('workload', workloadKey(a.workload), workloadKey(b.workload));
  if (a.planned !== b.planned) differ('a campaign of --runs', a.planned, b.planned);
  if (a.shard.count !== b.shard.count) {
    throw new MergeError(`merge: shards of different splits: ${a.file} is shard ${a.shard.index}/${a.shard.count}, ${b.file} is shard ${b.shard.index}/${b.shard.count}`);
  }
  if (pkg(a.sdk) !== pkg(b.sdk)) differ('SDK', pkg(a.sdk), pkg(b.sdk));
  if (pkg(a.tool) !== pkg(b.tool)) differ('mcp-sim', pkg(a.tool), pkg(b.tool));
  if (a.selfCheck !== b.selfCheck) differ('self-check', a.selfCheck, b.selfCheck);
  if (a.shrink !== b.shrink) differ('shrink', a.shrink, b.shrink);
}
