import { describe, expect, it } from 'vitest';
import { runChecked } from '../../src/check/index.ts';
import { explore, explorePreset } from '../../src/explore/index.ts';
import type { Scenario } from '../../src/sim/index.ts';

const preset = explorePreset('request-cancel-response')!;
/**
 * A client adapter that closes the connection when a response arrives for a request it already
 * cancelled: only a schedule where the response crosses the cancel shows it, never the natural order.
 */
const faulty: Scenario = { ...preset.scenario, adapterFaults: [{ side: 'client', fault: 'close-on-late-response' }] };

describe('explore: finds a fault injected into a preset', () => {
  it('request-cancel-response with close-on-late-response on the client: cancel.race-graceful, off the natural order, and its schedule replays it', async () => {
    const clean = await explore(preset.scenario);
    expect(clean.findings.map((f) => f.invariant)).not.toContain('cancel.race-graceful');
    const natural = await runChecked(faulty);
    expect(natural.findings.map((f) => f.invariant)).not.toContain('cancel.race-graceful');

    const result = await explore(faulty);
    expect(result.complete).toBe(true);
    const race = result.findings.find((f) => f.invariant === 'cancel.race-graceful');
    expect(race).toBeDefined();
    expect(race!.deviations).toBeGreaterThan(0);
    const replay = await runChecked(faulty, { tape: [...race!.tape] });
    expect(replay.findings.map((f) => f.invariant)).toContain('cancel.race-graceful');
  });
});
