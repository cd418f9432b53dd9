import { describe, expect, it } from 'vitest';
import { attribute, knockOnTable } from '../../src/model/attribution.ts';
import { finding, type Finding } from '../../src/model/finding.ts';
import { invariants } from '../../src/model/invariants.ts';
import { call, check, close, fault, handler, scenario } from './fixtures.ts';
import { seed99Case14622 } from './shrunkCases.ts';

const ids = (fs: readonly Finding[]) => fs.map((f) => f.invariant);

describe('knock-on attribution', () => {
  it('seed 99 case 14622 (shrunk): close-settles and the handler that never ends are knock-ons of the reused request id', async () => {
    const { run } = await check(seed99Case14622);
    const root = run.findings.find((f) => f.invariant === 'rpc.request-id-unique')!;
    expect(root).toMatchObject({ request: 'server:0', subjects: { sender: 'server', conn: 1, ids: ['n0'] } });
    const closeSettles = run.findings.filter((f) => f.invariant === 'lifecycle.close-settles');
    expect(closeSettles.length).toBeGreaterThan(0);
    for (const f of closeSettles) expect(f.rootCause).toEqual({ invariant: 'rpc.request-id-unique', request: 'server:0', at: root.at });
    // Its existing words are untouched: only the new fields were added.
    expect(closeSettles[0]!.message).toBe('connection 1 closed at the client but the handler of request 0 was not aborted.');
    expect(run.findings.find((f) => f.invariant === 'liveness.handler-ends')?.rootCause?.invariant).toBe('rpc.request-id-unique');
    expect(root.rootCause).toBeUndefined();
  });

  it('a close-settles finding without such a root stands on its own', async () => {
    const hang = { h: handler([], 'hang') };
    const { run } = await check(scenario(hang, [call('c1', 'h', { timeoutMs: 10_000 }), close('server')], [fault('client', 'hide-close')]));
    const f = run.findings.find((x) => x.invariant === 'lifecycle.close-settles');
    expect(f).toBeDefined();
    expect(f!.rootCause).toBeUndefined();
  });

  it('a cancel that does not abort its handler is the root of the handler never ending (SDK 1.32.2, request id 0)', async () => {
    const { run } = await check(scenario({ s: handler([], 'hang') }, [call('s0', 's', { signal: 'a' }, 'sampling/createMessage'), { kind: 'abort', signal: 'a' }]));
    const root = run.findings.find((f) => f.invariant === 'cancel.handler-aborted')!;
    expect(run.findings.find((f) => f.invariant === 'liveness.handler-ends')?.rootCause).toEqual({ invariant: 'cancel.handler-aborted', request: 's0', at: root.at });
  });

  it('a leaked abort listener is the root of the cancel sent after the call settled, though found at the end of the run', async () => {
    const { run } = await check(scenario({ h: handler() }, [call('c1', 'h', { signal: 'a' }), { kind: 'abort', signal: 'a' }]));
    const leak = run.findings.find((f) => f.invariant === 'leak.abort-listeners')!;
    const cancel = run.findings.find((f) => f.invariant === 'cancel.in-flight-only')!;
    expect(cancel.at).toBeLessThan(leak.at);
    expect(cancel.rootCause).toEqual({ invariant: 'leak.abort-listeners', request: 'signal:a', at: leak.at });
  });

  describe('attribute (pure)', () => {
    const dup = finding('rpc.request-id-unique', 5, 'reused 0', 'server:0', { sender: 'server', conn: 1, client: 0, ids: ['n0'] });
    const notAborted = finding('cancel.handler-aborted', 7, 'not aborted', 's1', { sender: 'server', conn: 1, ids: ['n0'] });
    const neverEnds = finding('liveness.handler-ends', 9, 'runs on', 's1', { sender: 'server', conn: 1, ids: ['n0'] });

    it('follows a chain to its first root, and leaves the root itself alone', () => {
      const out = attribute([dup, notAborted, neverEnds]);
      expect(out[0]).toBe(dup);
      expect(out[1]!.rootCause).toEqual({ invariant: 'rpc.request-id-unique', request: 'server:0', at: 5 });
      expect(out[2]!.rootCause).toEqual({ invariant: 'rpc.request-id-unique', request: 'server:0', at: 5 });
    });

    it('needs matching subjects and, for a root found as it happens, an earlier root', () => {
      const otherId = finding('liveness.handler-ends', 9, 'runs on', 's2', { sender: 'server', conn: 1, ids: ['n1'] });
      const otherConn = finding('liveness.handler-ends', 9, 'runs on', 's3', { sender: 'server', conn: 2, ids: ['n0'] });
      const otherSender = finding('liveness.handler-ends', 9, 'runs on', 'c1', { sender: 'client', conn: 1, ids: ['n0'] });
      const noSubjects = finding('liveness.handler-ends', 9, 'runs on', 's4');
      const before = finding('lifecycle.close-settles', 2, 'early', 's5', { sender: 'server', conn: 1, ids: ['n0'] });
      expect(attribute([before, dup, otherId, otherConn, otherSender, noSubjects]).map((f) => f.rootCause)).toEqual(Array(6).fill(undefined));
    });

    it('returns the very findings when none is a root, and is idempotent', () => {
      const plain = [neverEnds];
      expect(attribute(plain)).toBe(plain);
      const once = attribute([dup, neverEnds]);
      expect(attribute(once)).toEqual(once);
      expect(attribute([once[1]!])).toEqual([neverEnds]);
      expect(ids(once)).toEqual(['rpc.request-id-unique', 'liveness.handler-ends']);
    });

    it('the knock-on table names catalogue ids only, and no invariant is its own knock-on', () => {
      for (const row of knockOnTable) {
        expect(invariants.has(row.root)).toBe(true);
        for (const k of row.knockOns) {
          expect(invariants.has(k)).toBe(true);
          expect(k).not.toBe(row.root);
        }
      }
    });
  });
});
