import { describe, expect, it } from 'vitest';
import { isLegal, legalActions, sessionView } from '../../src/model/index.ts';
import { runScenario } from '../../src/sim/runScenario.ts';
import { abort, call, close, handler, scenario } from './fixtures.ts';

describe('legalActions', () => {
  it('legalActions: before the handshake completes nothing is offered', () => {
    const view = sessionView([{ kind: 'connect', conn: 1, i: 0, step: 0, t: 0 }]);
    expect(view.connState).toBe('connecting');
    expect(legalActions(view).map((a) => a.kind)).toEqual([]);
  });

  it('legalActions: an open session offers calls both ways, aborts of used signals and closes', async () => {
    const { trace } = await runScenario(scenario({ h: handler([], 'hang') }, [call('c1', 'h', { signal: 'a', timeoutMs: 10_000 })]), { maxVirtualMs: 10 });
    const legal = legalActions(sessionView(trace));
    expect(legal).toEqual([
      { kind: 'call', from: 'client', methods: ['tools/call'] },
      { kind: 'call', from: 'server', methods: ['sampling/createMessage', 'elicitation/create', 'roots/list'] },
      { kind: 'abort', signal: 'a' },
      { kind: 'close', side: 'client' },
      { kind: 'close', side: 'server' },
    ]);
    expect(isLegal(abort('a'), legal)).toBe(true);
    expect(isLegal({ kind: 'reconnect' }, legal)).toBe(false);
  });

  it('legalActions: after both sides observed the close only a reconnect (and unaborted signals) remain', async () => {
    const { trace } = await runScenario(scenario({ h: handler() }, [call('c1', 'h', { signal: 'a' }), abort('a'), close('client')]));
    const view = sessionView(trace);
    expect(view.connState).toBe('closed');
    expect(legalActions(view)).toEqual([{ kind: 'reconnect' }]);
  });
});
