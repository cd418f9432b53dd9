import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Pace } from '../../../src/campaign/real/pace.ts';
import { Waits } from '../../../src/campaign/real/waits.ts';

/** The calls-at-once cap a saturated server gets: halved on saturation, grown back while healthy, bounded. */
describe('the calls-at-once capacity', () => {
  afterEach(() => vi.restoreAllMocks());

  /** A clock the test moves: the capacity reads `performance.now()`. */
  const clock = () => {
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    return { advance: (ms: number) => (now += ms) };
  };

  const waits = () => new Waits({ hangAfterMs: 3_000, inFlightMs: 50, graceMs: 1_000 }, new Pace(), []);

  it('grows back while the server is healthy, never past the most calls at once that saturated it', () => {
    const time = clock();
    const w = waits();
    const { capacity } = w;
    capacity.saturated(12);
    expect(capacity.callCap).toBe(6);
    for (let second = 0; second < 200; second++) {
      time.advance(1_000);
      capacity.healthy();
    }
    // Before the bound, 200 healthy seconds made it 6 × 1.5^200 (reports showed 5e35).
    expect(capacity.callCap).toBe(12);
    // The report states the grown cap, and the lowest it went to.
    expect(w.summary().callsAtOnce).toEqual({ lowest: 6, last: 12, saturations: 1 });
  });

  it('is halved again when the grown cap saturates the server once more', () => {
    const time = clock();
    const w = waits();
    w.capacity.saturated(10);
    time.advance(1_000);
    w.capacity.healthy();
    expect(w.capacity.callCap).toBe(8);
    w.capacity.saturated(8);
    expect(w.summary().callsAtOnce).toEqual({ lowest: 4, last: 4, saturations: 2 });
  });
});
