import { describe, expect, it } from 'vitest';
import { applyCallerAction, initialCallerState, isLegal, legalCallerActions, type CallerState } from '../../src/model/callerLegality.ts';
import type { CallerAction } from '../../src/sim/index.ts';

const call = (signal?: string, client?: number): CallerAction => ({
  kind: 'call',
  call: 'c1',
  method: 'tools/call',
  options: signal ? { signal } : {},
  handler: 'h1',
  ...(client !== undefined && { client }),
});
const run = (actions: CallerAction[], state: CallerState = initialCallerState()) => actions.reduce(applyCallerAction, state);
const legal = (action: CallerAction, state: CallerState) => isLegal(action, legalCallerActions(state));

describe('caller legality', () => {
  it('offers calls both ways and closes of both sides from the start, but no abort and no reconnect', () => {
    expect(legalCallerActions(initialCallerState())).toEqual([
      { kind: 'call', from: 'client', methods: ['tools/call'] },
      { kind: 'call', from: 'server', methods: ['sampling/createMessage', 'elicitation/create', 'roots/list'] },
      { kind: 'close', side: 'client' },
      { kind: 'close', side: 'server' },
    ]);
  });

  it('allows an abort only of a signal an earlier call used, and again after it was aborted', () => {
    const s0 = initialCallerState();
    expect(legal({ kind: 'abort', signal: 'a' }, s0)).toBe(false);
    const s1 = run([call('a')]);
    expect(legal({ kind: 'abort', signal: 'a' }, s1)).toBe(true);
    expect(legal({ kind: 'abort', signal: 'b' }, s1)).toBe(false);
    const s2 = run([{ kind: 'abort', signal: 'a' }], s1);
    expect(s2.signalsAborted).toEqual(['a']);
    expect(legal({ kind: 'abort', signal: 'a' }, s2)).toBe(true);
  });

  it('allows a reconnect only after a close of that client, once per close', () => {
    const open = initialCallerState(2);
    expect(legal({ kind: 'reconnect' }, open)).toBe(false);
    const closed = run([{ kind: 'close', side: 'server', client: 1 }], open);
    expect(legal({ kind: 'reconnect' }, closed)).toBe(false);
    expect(legal({ kind: 'reconnect', client: 1 }, closed)).toBe(true);
    const again = run([{ kind: 'reconnect', client: 1 }], closed);
    expect(legal({ kind: 'reconnect', client: 1 }, again)).toBe(false);
    // Closing twice is legal; one reconnect opens it again.
    const twice = run([{ kind: 'close', side: 'client' }, { kind: 'close', side: 'client' }], open);
    expect(legal({ kind: 'close', side: 'client' }, run([{ kind: 'close', side: 'client' }], open))).toBe(true);
    expect(run([{ kind: 'reconnect' }], twice).clientsClosed).toEqual([]);
  });

  it('allows a fresh reconnect (a new Client) exactly where a reconnect is legal', () => {
    const open = initialCallerState();
    expect(legal({ kind: 'reconnect', fresh: true }, open)).toBe(false);
    const closed = run([{ kind: 'close', side: 'client' }], open);
    expect(legal({ kind: 'reconnect', fresh: true }, closed)).toBe(true);
    expect(run([{ kind: 'reconnect', fresh: true }], closed).clientsClosed).toEqual([]);
  });

  it('allows calls after a close (the SDK must reject them cleanly), and names clients only beyond client 0', () => {
    const closed = run([{ kind: 'close', side: 'client' }]);
    expect(legal(call(), closed)).toBe(true);
    expect(legal(call(undefined, 1), initialCallerState(1))).toBe(false);
    expect(legal(call(undefined, 1), initialCallerState(2))).toBe(true);
    expect(legalCallerActions(initialCallerState(2)).filter((a) => a.kind === 'close')).toEqual([
      { kind: 'close', side: 'client' },
      { kind: 'close', side: 'server' },
      { kind: 'close', side: 'client', client: 1 },
      { kind: 'close', side: 'server', client: 1 },
    ]);
  });

  it('leaves actions it does not govern (raw http) out of the legal list and the state alone', () => {
    const s = initialCallerState();
    const drop: CallerAction = { kind: 'http-drop' };
    expect(legal(drop, s)).toBe(false);
    expect(applyCallerAction(s, drop)).toBe(s);
  });
});
