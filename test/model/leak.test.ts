import { describe, expect, it } from 'vitest';
import { judge } from '../../src/model/judge.ts';
import { v1Facts } from '../../src/sdk/v1/facts.ts';
import type { EndState } from '../../src/sim/endState.ts';
import type { TraceEvent } from '../../src/sim/trace.ts';
import { call, check, fault, handler, plain, progress, scenario } from './fixtures.ts';

describe('leak invariants (end state)', () => {
  it('leak.correlation-maps: fires on a task-shaped result that keeps the progress handler / silent on a plain result', async () => {
    const bad = await check(scenario({ h: handler() }, [call('c1', 'h', { onprogress: true })], [fault('server', 'task-shaped-result')]));
    expect(bad.ids).toContain('leak.correlation-maps');
    expect(bad.run.endState.maps.client._progressHandlers?.size).toBe(1);
    const good = await check(scenario({ h: handler([progress(1)]) }, [call('c1', 'h', { onprogress: true })]));
    expect(good.ids).not.toContain('leak.correlation-maps');
  });

  it('leak.timers: fires on an interval nobody clears / silent on a run whose timers all fired', async () => {
    const bad = await check(scenario({ h: handler([], 'result', 'honour', { leakInterval: true }) }, [call('c1', 'h')]), { maxVirtualMs: 3000 });
    expect(bad.ids).toContain('leak.timers');
    expect((await check(plain())).ids).not.toContain('leak.timers');
  });

  // Real SDK 1.32.2: `request()` adds an abort listener to options.signal and never removes it.
  it('leak.abort-listeners: fires on a settled call that leaves its listener (SDK 1.32.2) / silent on a call still in flight', async () => {
    const bad = await check(scenario({ h: handler() }, [call('c1', 'h', { signal: 'a' })]));
    expect(bad.ids).toContain('leak.abort-listeners');
    expect(bad.run.endState.signals).toEqual([{ name: 'a', aborted: false, abortListeners: 1 }]);
    const good = await check(scenario({ h: handler([], 'hang') }, [call('c1', 'h', { signal: 'a', timeoutMs: 10_000 })]), { maxVirtualMs: 1000 });
    expect(good.ids).not.toContain('leak.abort-listeners');
  });

  it('leak.correlation-maps: fires on an HTTP session that keeps an answered request\'s stream mapping / silent on one whose stream is still open', () => {
    const endState = (streams: string[]): EndState => ({
      maps: { client: {}, server: {} },
      timers: [],
      signals: [],
      transports: [],
      openCalls: [],
      openExchanges: [],
      httpServers: [
        {
          conn: 1,
          closed: false,
          maps: { _requestToStreamMapping: { keys: [1], values: ['stream-a'] }, _requestResponseMap: { keys: [] }, _streamMapping: { keys: streams } },
        },
      ],
    });
    const end = [{ kind: 'end', outcome: 'quiescent', i: 0, step: 0, t: 0 } as TraceEvent];
    const ids = (s: EndState) => judge(end, s, { facts: v1Facts }).map((f) => f.invariant);
    expect(ids(endState([]))).toContain('leak.correlation-maps');
    expect(ids(endState(['stream-a']))).not.toContain('leak.correlation-maps');
  });

  /** An end state whose `side` holds `keys` in its map `field`, nothing else in flight; judged on an empty trace. */
  const leaked = (side: 'client' | 'server', field: string, keys: number[]) => {
    const endState: EndState = { maps: { client: {}, server: {}, [side]: { [field]: { keys } } }, timers: [], signals: [], transports: [], openCalls: [], openExchanges: [] };
    const end = [{ kind: 'end', outcome: 'quiescent', i: 0, step: 0, t: 0 } as TraceEvent];
    return judge(end, endState, { facts: v1Facts }).filter((f) => f.invariant === 'leak.correlation-maps').map((f) => f.clause ?? '(none)');
  };

  // The maps SDK 1.32.2 is known to leak (response handlers, HTTP maps) carry no clause; every other map names itself.
  it('leak.correlation-maps (response handlers): fires on _responseHandlers holding a request nobody awaits / silent on it empty', () => {
    expect(leaked('client', '_responseHandlers', [1])).toEqual(['(none)']);
    expect(leaked('client', '_responseHandlers', [])).toEqual([]);
  });

  it('leak.correlation-maps (progress handlers): fires on _progressHandlers holding a request nobody awaits / silent on it empty', () => {
    expect(leaked('client', '_progressHandlers', [1])).toEqual(['progressHandlers']);
    expect(leaked('client', '_progressHandlers', [])).toEqual([]);
  });

  it('leak.correlation-maps (timeout records): fires on _timeoutInfo holding a request nobody awaits / silent on it empty', () => {
    expect(leaked('server', '_timeoutInfo', [0])).toEqual(['timeouts']);
    expect(leaked('server', '_timeoutInfo', [])).toEqual([]);
  });

  it('leak.correlation-maps (handler abort controllers): fires on _requestHandlerAbortControllers holding a request no handler serves / silent on it empty', () => {
    expect(leaked('server', '_requestHandlerAbortControllers', [1])).toEqual(['handlerAbortControllers']);
    expect(leaked('server', '_requestHandlerAbortControllers', [])).toEqual([]);
  });

  it('leak.correlation-maps (task maps): fires on _requestResolvers or _taskProgressTokens holding anything (no task ever runs) / silent on them empty', () => {
    expect(leaked('client', '_requestResolvers', [1])).toEqual(['requestResolvers']);
    expect(leaked('client', '_taskProgressTokens', [1])).toEqual(['taskProgressTokens']);
    expect(leaked('client', '_requestResolvers', [])).toEqual([]);
    expect(leaked('client', '_taskProgressTokens', [])).toEqual([]);
  });
});
