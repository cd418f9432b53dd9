import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { minimize, singleRemovals, singleSimplifications } from '../../src/campaign/minimize.ts';
import { caseAt, type SimCase } from '../../src/campaign/simCase.ts';
import { resolveWorkload } from '../../src/options/index.ts';
import type { CallerAction } from '../../src/sim/index.ts';

const workload = resolveWorkload({ actionsMax: 8 });

/** What the greedy pass compares: trailing natural choices are trimmed from every candidate. */
const trim = (tape: readonly number[]) => {
  let end = tape.length;
  while (end > 0 && tape[end - 1] === 0) end--;
  return tape.slice(0, end);
};

/** 1-minimal: no single removal or simplification keeps the predicate. */
async function survivors(c: SimCase, fails: (c: SimCase) => Promise<boolean>): Promise<string[]> {
  const out: string[] = [];
  for (const x of [...singleRemovals(c), ...singleSimplifications(c)]) {
    if (await fails({ ...x.case, tape: trim(x.case.tape) })) out.push(x.what);
  }
  return out;
}

const calls = (c: SimCase) => c.scenario.actions.filter((a): a is Extract<CallerAction, { kind: 'call' }> => a.kind === 'call');

describe('minimize', () => {
  it('reaches the 1-minimal case of a synthetic predicate: a sampling call with a timeout and a deviation of 3 or more', async () => {
    const fails = async (c: SimCase) =>
      calls(c).some((a) => a.method === 'sampling/createMessage' && a.options.timeoutMs !== undefined) && c.tape.some((x) => x >= 3);
    // The first generated case that shows it and has more to remove (several calls, a long tape).
    let c0: SimCase | undefined;
    for (let i = 0; i < 2_000 && !c0; i++) {
      const c = caseAt(5, i, workload);
      if (calls(c).length >= 3 && c.tape.length > 5 && (await fails(c))) c0 = c;
    }
    expect(c0, 'no generated case to start from').toBeDefined();

    const { case: min, removals } = await minimize(c0!, fails);
    expect(await fails(min)).toBe(true);
    expect(removals).toBeGreaterThan(0);
    // Exactly what the predicate needs: one call, one option, one tape entry, default run seed.
    expect(min.scenario.actions).toHaveLength(1);
    expect(calls(min)[0]!.method).toBe('sampling/createMessage');
    expect(Object.keys(calls(min)[0]!.options)).toEqual(['timeoutMs']);
    expect(min.tape).toHaveLength(1);
    expect(min.tape[0]).toBeGreaterThanOrEqual(3);
    expect(min.seed).toBe(0);
    expect(Object.keys(min.scenario.handlers)).toEqual([calls(min)[0]!.handler]);
    expect(await survivors(min, fails)).toEqual([]);
  });

  it('never returns a case where the predicate no longer holds, and always a 1-minimal one (generated cases, arbitrary predicates)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: 10_000 }), fc.integer({ min: 1, max: 2 ** 31 - 1 }), async (index, salt) => {
        const c = caseAt(11, index, workload);
        // An arbitrary, non-monotone predicate of the case's text, forced true on the start case.
        const text = (x: SimCase) => JSON.stringify(x);
        const hash = (s: string) => [...s].reduce((h, ch) => Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0, salt);
        const fails = async (x: SimCase) => text(x) === text({ ...c, tape: trim(c.tape) }) || hash(text(x)) % 3 === 0;
        const { case: min } = await minimize(c, fails);
        expect(await fails(min)).toBe(true);
        expect(await survivors(min, fails)).toEqual([]);
      }),
      { numRuns: 60, seed: 7 },
    );
  });

  it('keeps an abort together with the call whose signal it aborts', async () => {
    const c: SimCase = {
      scenario: {
        profile: 'memory',
        handlers: { h1: { steps: [], end: { kind: 'hang' }, onAbort: 'honour' }, h2: { steps: [], end: { kind: 'result' }, onAbort: 'honour' } },
        actions: [
          { kind: 'call', call: 'c1', method: 'tools/call', options: { signal: 'a' }, handler: 'h1' },
          { kind: 'call', call: 'c2', method: 'tools/call', options: {}, handler: 'h2' },
          { kind: 'abort', signal: 'a' },
        ],
      },
      tape: [0, 2, 0, 0],
      seed: 9,
    };
    const fails = async (x: SimCase) => x.scenario.actions.some((a) => a.kind === 'abort');
    const { case: min } = await minimize(c, fails);
    expect(min.scenario.actions).toEqual([
      { kind: 'call', call: 'c1', method: 'tools/call', options: { signal: 'a' }, handler: 'h1' },
      { kind: 'abort', signal: 'a' },
    ]);
    expect(min.scenario.handlers).toEqual({ h1: { steps: [], end: { kind: 'result' }, onAbort: 'honour' } });
    expect(min.tape).toEqual([]);
    expect(min.seed).toBe(0);
  });
});
