import { describe, expect, it } from 'vitest';
import { globalsRestored, runScenario } from '../../src/sim/index.ts';
import { cancelRace } from './fixtures.ts';

describe('runScenario: globals are restored (harness.globals-restored)', () => {
  it('restores timers, Date, Math.random and crypto.randomUUID after a normal run', async () => {
    const before = { setTimeout, Date, random: Math.random, listeners: process.listenerCount('unhandledRejection') };
    await runScenario(cancelRace());
    expect(globalsRestored()).toEqual([]);
    expect(setTimeout).toBe(before.setTimeout);
    expect(Date).toBe(before.Date);
    expect(Math.random).toBe(before.random);
    expect(process.listenerCount('unhandledRejection')).toBe(before.listeners);
  });

  it('restores them after a run that throws', async () => {
    const before = { setTimeout, Date, listeners: process.listenerCount('uncaughtException') };
    let inside: unknown;
    await expect(
      runScenario(cancelRace(), {
        atEnd: () => {
          inside = { setTimeout: globalThis.setTimeout, now: Date.now() };
          throw new Error('boom inside the run');
        },
      }),
    ).rejects.toThrow('boom inside the run');
    // The run really had faked them, so the restoration is not vacuous.
    expect((inside as { setTimeout: unknown }).setTimeout).not.toBe(before.setTimeout);
    expect(globalsRestored()).toEqual([]);
    expect(setTimeout).toBe(before.setTimeout);
    expect(Date).toBe(before.Date);
    expect(process.listenerCount('uncaughtException')).toBe(before.listeners);
  });

  it('gives back the stack trace limit it lowers for the run, also when the run throws', async () => {
    const before = Error.stackTraceLimit;
    Error.stackTraceLimit = 17;
    try {
      let inside: number | undefined;
      await expect(
        runScenario(cancelRace(), {
          atEnd: () => {
            inside = Error.stackTraceLimit;
            throw new Error('boom inside the run');
          },
        }),
      ).rejects.toThrow('boom inside the run');
      expect(inside).toBe(0);
      expect(Error.stackTraceLimit).toBe(17);
    } finally {
      Error.stackTraceLimit = before;
    }
  });

  it('leaves real timers working after a run', async () => {
    await runScenario(cancelRace());
    await new Promise((resolve) => setTimeout(resolve, 1));
  });
});
