/**
 * Shards: a campaign of `runs` cases split into `count` contiguous slices of case indices, so a
 * CI matrix runs them side by side and `mcp-sim merge` joins their reports into the report of
 * the whole campaign. Slice `index` (1-based) holds cases ⌊(index−1)·runs/count⌋ up to (not
 * including) ⌊index·runs/count⌋: every case in exactly one shard, shard sizes differing by at
 * most one, and case indices (hence `--seed S --case K` replay commands) the campaign's own.
 */

/** Case indices `from` (included) to `to` (excluded). */
export interface CaseRange {
  readonly from: number;
  readonly to: number;
}

/** The case indices of shard `index` (1-based) of `count` of a campaign of `runs` cases. */
export function shardRange(index: number, count: number, runs: number): CaseRange {
  if (!(Number.isSafeInteger(index) && Number.isSafeInteger(count) && index >= 1 && index <= count && count <= runs)) {
    throw new RangeError(`shardRange: no shard ${index}/${count} of ${runs} runs`);
  }
  return { from: Math.floor(((index - 1) * runs) / count), to: Math.floor((index * runs) / count) };
}

/** `from..to-1` as a reader counts cases (both ends included). */
export function formatRange(range: CaseRange): string {
  return range.to - range.from === 1 ? `case ${range.from}` : `cases ${range.from}..${range.to - 1}`;
}
