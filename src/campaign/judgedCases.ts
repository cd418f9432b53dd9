import type { Finding } from '../model/finding.ts';
import type { SimCase } from './simCase.ts';
import { canonicalJson } from '../util/json.ts';

/** Cases kept by default: a campaign's shrinks judge a few thousand candidates; findings are small. */
export const JUDGED_CASES_MAX = 50_000;

/**
 * The findings of the cases shrinking already ran, by case. A run is a pure function of its case
 * (scenario, tape, seed) on one SDK release, so a candidate judged once is not run again: fast-check's
 * shrinker and the greedy pass of `minimize` revisit candidates, and the invariants a first case
 * breaks together shrink through the same candidates. Only the findings are kept (the trace of
 * the final counterexample is run once more), and the oldest half goes when the cache is full.
 */
export class JudgedCases {
  private readonly byCase = new Map<string, readonly Finding[]>();
  /** Candidates answered from the cache, and those run. */
  hits = 0;
  misses = 0;

  constructor(private readonly max = JUDGED_CASES_MAX) {}

  /** The findings of `c`, from the cache or from `run` (then kept). */
  async findings(c: SimCase, run: () => Promise<readonly Finding[]>): Promise<readonly Finding[]> {
    const key = caseKey(c);
    const cached = this.byCase.get(key);
    if (cached) {
      this.hits++;
      return cached;
    }
    this.misses++;
    const findings = await run();
    if (this.byCase.size >= this.max) {
      let drop = this.byCase.size >> 1;
      for (const k of this.byCase.keys()) {
        if (drop-- <= 0) break;
        this.byCase.delete(k);
      }
    }
    this.byCase.set(key, findings);
    return findings;
  }
}

/**
 * What a run depends on, as one string: the seed, the tape and the scenario, keys sorted (the
 * shrinkers build equal cases in different key orders). The tape's trailing zeros are left out:
 * past its end the scheduler takes the natural choice, 0, so they change nothing (`Tape`).
 */
function caseKey(c: SimCase): string {
  let end = c.tape.length;
  while (end > 0 && c.tape[end - 1] === 0) end--;
  return canonicalJson([c.seed, c.tape.slice(0, end), c.scenario]);
}
