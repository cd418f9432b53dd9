import type { VirtualNetwork, VirtualResponse } from '../scenario.ts';
import type { TraceEventBody } from '../trace.ts';
import { harnessListener } from './abortReach.ts';
import type { HandlerScope } from './handlerScope.ts';

/** What the virtual network answers when the scenario names no responses. */
export const DEFAULT_NETWORK: VirtualNetwork = { responses: [{ status: 200, body: '{}', latencyMs: 10 }] };

/** Statuses whose response has no body (the `Response` constructor refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * A `fetch` that never leaves the process: the n-th call is answered with the network's n-th
 * response after its latency in virtual time, or rejected with the signal's reason when its
 * `AbortSignal` aborts first. Every call and its end are in the trace, with whether it carried a
 * signal and whether its handler's own signal had already aborted (work after the cancel).
 */
export function virtualFetch(network: VirtualNetwork, scope: HandlerScope, record: (e: TraceEventBody) => void, connOf: () => number): typeof fetch {
  let calls = 0;
  return function fetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const n = calls++;
    const url = input instanceof Request ? input.url : String(input);
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    const frame = scope.current();
    if (!frame && scope.leftover()) record({ kind: 'leftover-work', side: 'server', what: 'fetch', label: url });
    record({
      kind: 'fetch',
      side: 'server',
      conn: frame?.conn ?? connOf(),
      ...(frame && { id: frame.id }),
      n,
      url,
      signal: signal !== undefined && signal !== null,
      afterAbort: frame?.signal.aborted ?? false,
      ...(signal?.aborted && { stillborn: true }),
    });
    const answer: VirtualResponse = network.responses[n % network.responses.length]!;
    return new Promise<Response>((resolve, reject) => {
      const abort = harnessListener(() => {
        clearTimeout(timer);
        record({ kind: 'fetch-end', n, outcome: 'aborted' });
        // The call rejects with the abort: when its handler's own signal aborted, the abort reached the tool.
        if (frame?.signal.aborted) frame.reached('fetch');
        reject(signal?.reason ?? new DOMException('This operation was aborted', 'AbortError'));
      });
      const timer = setTimeout(function virtualFetchResponse() {
        signal?.removeEventListener('abort', abort);
        record({ kind: 'fetch-end', n, outcome: 'response', status: answer.status });
        resolve(new Response(NULL_BODY.has(answer.status) ? null : answer.body, { status: answer.status, headers: { 'content-type': 'application/json' } }));
      }, answer.latencyMs);
      if (signal?.aborted) return abort();
      signal?.addEventListener('abort', abort, { once: true });
    });
  };
}
