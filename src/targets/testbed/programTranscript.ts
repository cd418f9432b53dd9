import type { TraceEvent, WireId } from '../../sim/trace.ts';
import { canonicalJson, type JsonValue } from '../../util/json.ts';
import { isJsonObject } from '../../util/jsonrpc.ts';
import { isBarrierPingId } from '../../util/barrierPing.ts';

/**
 * What a scripted program did on one test bed, in a form two SDKs can be compared by, frame by
 * frame: `wire`, one line per frame after the handshake and `tools/list` (`→` client to server,
 * `←` server to client), ids renamed by order of appearance (`c1`, `c2` for the client's requests,
 * `s1`, `s2` for the server's), keys sorted, `jsonrpc` left out; and `handler`, the side channel's
 * events in order; mcp-sim's barrier pings after a cancel (and their answers) are left out, as the
 * handshake is. The two are kept apart because stdout and stderr are separate pipes: their
 * interleaving is not the server's order.
 */
export interface ProgramTranscript {
  readonly wire: string[];
  readonly handler: string[];
}

const SETUP_METHODS = new Set(['initialize', 'notifications/initialized', 'tools/list']);

export function programTranscript(trace: readonly TraceEvent[]): ProgramTranscript {
  const names = new Map<string, string>();
  const counts = { c: 0, s: 0 };
  const setupIds = new Set<string>();
  const name = (by: 'c' | 's', id: WireId) => {
    const key = `${by}:${JSON.stringify(id)}`;
    if (!names.has(key)) names.set(key, `${by}${++counts[by]}`);
    return names.get(key)!;
  };
  const wire: string[] = [];
  const handler: string[] = [];
  const callIds = new Map<string, string>();
  for (const e of trace) {
    if (e.kind === 'send' || e.kind === 'deliver') {
      const fromClient = e.kind === 'send';
      const f = e.frame;
      if (!isJsonObject(f)) {
        wire.push(`${fromClient ? '→' : '←'} ${JSON.stringify(f)}`);
        continue;
      }
      const { jsonrpc: _, ...frame } = f;
      if ('id' in frame && isBarrierPingId(frame.id)) continue;
      const isRequest = typeof frame.method === 'string' && 'id' in frame;
      const isResponse = !('method' in frame) && 'id' in frame;
      // A request is named by its sender; a response by the requester (the other side).
      const owner: 'c' | 's' = isRequest === fromClient ? 'c' : 's';
      if (isRequest && SETUP_METHODS.has(frame.method as string)) setupIds.add(`${owner}:${JSON.stringify(frame.id)}`);
      if ((isRequest || isResponse) && setupIds.has(`${owner}:${JSON.stringify(frame.id)}`)) continue;
      if (typeof frame.method === 'string' && SETUP_METHODS.has(frame.method)) continue;
      if (isRequest || isResponse) frame.id = name(owner, frame.id as WireId);
      if (frame.method === 'notifications/cancelled' && isJsonObject(frame.params)) {
        frame.params = { ...frame.params, requestId: name(fromClient ? 'c' : 's', frame.params.requestId as WireId) };
      }
      // The program is mcp-sim's own input, the same for every SDK: the request shows only its tool.
      if (frame.method === 'tools/call' && isJsonObject(frame.params)) frame.params = { ...frame.params, arguments: '<program>' };
      wire.push(`${fromClient ? '→' : '←'} ${canonicalJson(frame)}`);
    } else if (e.kind === 'call-start') {
      if (e.id !== undefined) callIds.set(JSON.stringify(e.id), e.call);
    } else if (e.kind === 'handler-start' || e.kind === 'handler-step' || e.kind === 'handler-abort' || e.kind === 'handler-end') {
      const id = names.get(`c:${JSON.stringify(e.id)}`) ?? String(e.id);
      handler.push(
        e.kind === 'handler-start'
          ? `start ${id}`
          : e.kind === 'handler-step'
            ? `step ${id} #${e.index} ${e.op.kind}`
            : e.kind === 'handler-abort'
              ? `abort observed ${id}`
              : `end ${id} ${e.outcome}`,
      );
    }
  }
  return { wire, handler };
}
