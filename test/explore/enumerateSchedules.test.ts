import { describe, expect, it } from 'vitest';
import { enumerateSchedules, SleepBlocked, type Chooser } from '../../src/explore/index.ts';
import type { Footprint } from '../../src/sim/footprint.ts';

/**
 * A toy system without the SDK: processes, each a list of steps that touch named resources.
 * Every process is enabled until its steps run out; a run is the sequence of steps taken.
 */
function toy(processes: Record<string, readonly (readonly string[])[]>) {
  return async (choose: Chooser) => {
    const next = Object.fromEntries(Object.keys(processes).map((p) => [p, 0]));
    const order: string[] = [];
    for (;;) {
      const enabled: Footprint[] = Object.entries(processes)
        .filter(([p, steps]) => next[p]! < steps.length)
        .map(([p, steps]) => ({ key: p, touches: steps[next[p]!]! }));
      if (enabled.length === 0) return { value: order.join(' '), quiescent: true };
      const f = enabled[choose(enabled)]!;
      order.push(`${f.key}${next[f.key]}`);
      next[f.key]!++;
    }
  };
}

async function schedules(system: ReturnType<typeof toy>, reduce: boolean) {
  const seen: string[] = [];
  const stats = await enumerateSchedules(system, (v) => seen.push(v), { reduce, runsMax: 10_000 });
  return { seen, stats };
}

describe('enumerateSchedules: source-set DPOR with sleep sets on toy systems', () => {
  it('two independent processes of two steps: 6 schedules unreduced, 1 reduced', async () => {
    const system = toy({ a: [['x'], ['x']], b: [['y'], ['y']] });
    expect((await schedules(system, false)).seen).toHaveLength(6);
    expect((await schedules(system, true)).seen).toHaveLength(1);
  });

  it('two processes writing one resource: every order of the conflicting steps is kept (6 of 6)', async () => {
    const system = toy({ a: [['x'], ['x']], b: [['x'], ['x']] });
    expect((await schedules(system, true)).seen).toHaveLength(6);
  });

  it('one conflict among independent steps: one schedule per order of the conflicting pair', async () => {
    // a0 and b1 touch z; everything else is private. Two classes: a0 before b1, or after.
    const system = toy({ a: [['z'], ['x']], b: [['y'], ['z']] });
    const { seen } = await schedules(system, true);
    expect(seen).toHaveLength(2);
    const aFirst = (s: string) => s.indexOf('a0') < s.indexOf('b1');
    expect(new Set(seen.map(aFirst))).toEqual(new Set([true, false]));
  });

  it('a step touching everything is ordered against every other step', async () => {
    const system = toy({ a: [['x']], t: ['everything' as unknown as readonly string[]], b: [['y']] });
    const full = await schedules(system, false);
    const reduced = await schedules(system, true);
    // t before both, after both, or between them in either order (a t b, b t a): 4 classes of 6.
    expect(full.seen).toHaveLength(6);
    expect(reduced.seen).toHaveLength(4);
  });

  it('a chooser that throws something other than SleepBlocked stops the enumeration with it', async () => {
    const boom = async () => {
      throw new Error('boom');
    };
    await expect(enumerateSchedules(boom, () => {}, { reduce: true, runsMax: 5 })).rejects.toThrow('boom');
    expect(new SleepBlocked()).toBeInstanceOf(Error);
  });

  it('runsMax stops a big enumeration and counts what it left', async () => {
    const system = toy({ a: [['x'], ['x']], b: [['x'], ['x']] });
    const stats = await enumerateSchedules(system, () => {}, { reduce: false, runsMax: 2 });
    expect(stats.schedules).toBe(2);
    expect(stats.unexplored).toBeGreaterThan(0);
  });
});
