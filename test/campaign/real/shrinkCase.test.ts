import { describe, expect, it } from 'vitest';
import { shrinkCase } from '../../../src/campaign/real/realCampaign.ts';

/**
 * A case is a number; its candidates are 30 numbers a round (as a generated client case has),
 * the last of them one smaller: every candidate but that one stops failing. Runs are counted.
 */
function setup() {
  let ran = 0;
  const smaller = (n: number) => (n === 0 ? [] : [...Array.from({ length: 29 }, (_, k) => 1_000 + k), n - 1]);
  const many = async (cs: readonly number[]) => ((ran += cs.length), cs.map((c) => ({ fails: c < 1_000 })));
  return { smaller, many, runs: () => ran };
}

describe('shrinkCase in real time (one candidate at a time)', () => {
  it('pays its budget of 40 candidates for those it ran: the first failing candidate of a round ends the round, and the ones after it cost nothing', async () => {
    const { many, runs } = setup();
    // The failing candidate comes first: 40 rounds of one run each.
    const first = await shrinkCase<number, { fails: boolean }>(50, (n) => (n === 0 ? [] : [n - 1, ...Array.from({ length: 29 }, (_, k) => 1_000 + k)]), (r) => r.fails, { fails: true }, many, { shrinkTries: 1, shrinkMsMax: 60_000 });
    expect(first.minimal).toBe(10);
    expect(first.shrinks).toBe(40);
    expect(runs()).toBe(40);
  });

  it('stops when the candidates it ran reach the budget, with each try of a round counted once', async () => {
    const { smaller, many, runs } = setup();
    const last = await shrinkCase(5, smaller, (r) => r.fails, { fails: true }, many, { shrinkTries: 1, shrinkMsMax: 60_000 });
    // 30 candidates run in the first round (the 30th fails), 10 left of the budget in the second: none fails.
    expect(last).toMatchObject({ minimal: 4, shrinks: 1 });
    expect(runs()).toBe(40);
  });
});
