import { describe, expect, it } from 'vitest';
import type { Plan } from '../../src/real/plan.ts';
import { labelledCall } from '../../src/targets/testbed/testbedCases.ts';
import { planShrinks, renumbered } from '../../src/workload/planShrinks.ts';
import { declaredArguments } from '../../src/workload/toolArguments.ts';

const schema = { type: 'object', properties: { steps: { type: 'integer' }, stepMs: { type: 'integer' } } };
const declared = new Map([['work', declaredArguments(schema)]]);

describe('declaredArguments: the top-level arguments an input schema declares', () => {
  it('properties, patternProperties, allOf/anyOf members and a top-level $ref into $defs', () => {
    const d = declaredArguments({
      $ref: '#/$defs/In',
      $defs: { In: { type: 'object', properties: { a: {} }, allOf: [{ properties: { b: {} } }] } },
      anyOf: [{ properties: { c: {} } }],
      patternProperties: { '^x-': {} },
    });
    expect(['a', 'b', 'c', 'x-trace'].map(d)).toEqual([true, true, true, true]);
    expect(['g', 'steps', 'X-trace'].map(d)).toEqual([false, false, false]);
  });
  it('a schema that declares nothing (or is no object) declares no argument', () => {
    expect(declaredArguments({ type: 'object' })('a')).toBe(false);
    expect(declaredArguments(true)('a')).toBe(false);
    expect(declaredArguments({ patternProperties: { '(?<': {} } })('a')).toBe(false);
  });
});

describe('planShrinks', () => {
  const noisy: Plan = {
    serverRequests: 'answer',
    calls: [
      { label: 'c1', tool: 'work', arguments: { steps: 3, g: 'o6}0p:w/', '@=J': { Z: null } }, progressToken: 9, at: { kind: 'start', ms: 0 } },
      { label: 'c2', tool: 'other', arguments: { q: 1 }, at: { kind: 'written', call: 'c1', ms: 5 } },
    ],
  };

  it('tries the plan without every undeclared argument first, all at once, the declared ones kept', () => {
    const [first] = planShrinks(noisy, { declared });
    expect(first!.calls[0]!.arguments).toEqual({ steps: 3 });
    // A tool whose schema is unknown keeps its arguments in that candidate.
    expect(first!.calls[1]!.arguments).toEqual({ q: 1 });
  });

  it('no such candidate when every argument is declared, or the tool\'s arguments are fixed', () => {
    const clean: Plan = { ...noisy, calls: [{ ...noisy.calls[0]!, arguments: { steps: 3 } }] };
    expect(planShrinks(clean, { declared })).toEqual(planShrinks(clean));
    const fixed = planShrinks(noisy, { declared, fixed: new Set(['work']) });
    expect(fixed.some((p) => p.calls.some((c) => c.tool === 'work' && c.arguments.g === undefined))).toBe(false);
  });

  it('a call removed: the calls left are renumbered from c1, anchors, cancels and a string token follow', () => {
    const plan: Plan = {
      serverRequests: 'answer',
      calls: [
        { label: 'c1', tool: 'work', arguments: {}, at: { kind: 'start', ms: 0 } },
        { label: 'c2', tool: 'work', arguments: {}, progressToken: 'm.-c2', at: { kind: 'start', ms: 12 }, cancel: { kind: 'progress', call: 'c2', n: 2, ms: 1 }, cancelHow: 'notify' },
        { label: 'c3', tool: 'work', arguments: {}, progressToken: 808, at: { kind: 'written', call: 'c2', ms: 3 }, sameIdAs: 'c2' },
      ],
      close: { kind: 'progress', call: 'c2', n: 1, ms: 0 },
    };
    const withoutC1 = planShrinks(plan).find((p) => p.calls.length === 2 && p.calls[0]!.at.kind === 'start' && p.calls[0]!.at.ms === 12)!;
    expect(withoutC1.calls.map((c) => c.label)).toEqual(['c1', 'c2']);
    expect(withoutC1.calls[0]).toMatchObject({ progressToken: 'm.-c1', cancel: { kind: 'progress', call: 'c1', n: 2 } });
    expect(withoutC1.calls[1]).toMatchObject({ progressToken: 808, at: { kind: 'written', call: 'c1', ms: 3 }, sameIdAs: 'c1' });
    expect(withoutC1.close).toEqual({ kind: 'progress', call: 'c1', n: 1, ms: 0 });
  });

  it('a one-call case left of a two-call one says c1; a close anchored on the removed call goes with it', () => {
    const plan: Plan = {
      serverRequests: 'answer',
      calls: [
        { label: 'c1', tool: 'work', arguments: {}, at: { kind: 'start', ms: 0 } },
        { label: 'c2', tool: 'work', arguments: {}, at: { kind: 'written', call: 'c1', ms: 7 } },
      ],
      close: { kind: 'written', call: 'c1', ms: 50 },
    };
    const only = planShrinks(plan).filter((p) => p.calls.length === 1);
    expect(only.map((p) => p.calls[0]!.label)).toEqual(['c1', 'c1']);
    expect(only[0]!.calls[0]!.at).toEqual({ kind: 'start', ms: 7 });
    expect(only[0]!.close).toBeUndefined();
    expect(only[1]!.close).toEqual({ kind: 'written', call: 'c1', ms: 50 });
  });

  it('a test bed\'s call carries its label in its arguments: renumbering redoes them (labelledCall)', () => {
    const plan: Plan = { serverRequests: 'answer', calls: [{ label: 'c3', tool: 'run', arguments: { program: {}, call: 'c3' }, at: { kind: 'start', ms: 0 } }] };
    expect(renumbered(plan, labelledCall).calls[0]).toMatchObject({ label: 'c1', arguments: { program: {}, call: 'c1' } });
    expect(renumbered(renumbered(plan, labelledCall), labelledCall)).toEqual(renumbered(plan, labelledCall));
  });
});
