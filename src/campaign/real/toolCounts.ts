import type { TraceEvent } from '../../sim/trace.ts';
import type { JsonValue } from '../../util/json.ts';
import { isJsonObject } from '../../util/jsonrpc.ts';

/**
 * How one tool was exercised over a campaign's runs: what makes "no finding" checkable. A tool
 * called 40 times but never cancelled says nothing of its cancellation.
 */
export interface ToolCount {
  readonly tool: string;
  /** `tools/call` requests written. */
  readonly calls: number;
  /** Calls the client gave up while they were in flight: cancelled, timed out or their POST stream dropped. */
  readonly cancels: number;
  /** Calls that carried `_meta.progressToken`. */
  readonly withToken: number;
  /** Calls in flight when the client closed the connection (stdin EOF, the session's DELETE). */
  readonly closes: number;
}

/** The `tools/call` each call label of a run wrote: its tool and whether it asked for progress. */
function callsOf(trace: readonly TraceEvent[]): Map<string, { readonly tool: string; readonly token: boolean }> {
  const calls = new Map<string, { tool: string; token: boolean }>();
  const waiting: { label: string; id: JsonValue | undefined }[] = [];
  for (const e of trace) {
    if (e.kind === 'call-start' && e.from === 'client' && e.method === 'tools/call') waiting.push({ label: e.call, id: e.id as JsonValue | undefined });
    if (e.kind !== 'send' || e.from !== 'client' || !isJsonObject(e.frame) || e.frame.method !== 'tools/call' || !isJsonObject(e.frame.params)) continue;
    const frame = e.frame;
    const params = frame.params as Record<string, JsonValue>;
    // A call-start is recorded just before its request is written: the first waiting one with the frame's id.
    const k = waiting.findIndex((w) => w.id === undefined || w.id === frame.id);
    if (k < 0) continue;
    const label = waiting.splice(k, 1)[0]!.label;
    calls.set(label, { tool: String(params.name), token: isJsonObject(params._meta) && params._meta.progressToken !== undefined });
  }
  return calls;
}

/** The tool the call `label` of a run's trace called (undefined: no such call, or not a tool call). */
export function toolOfCall(trace: readonly TraceEvent[], label: string | undefined): string | undefined {
  return label === undefined ? undefined : callsOf(trace).get(label)?.tool;
}

/**
 * Per tool, over the runs of a campaign (their traces): calls, cancels, calls with a progress
 * token, closes; in the order the tools first appear (`order` first, the ones it lists that
 * were never called too, with zeros).
 */
export function toolCounts(traces: readonly (readonly TraceEvent[])[], order: readonly string[] = []): ToolCount[] {
  const counts = new Map<string, { tool: string; calls: number; cancels: number; withToken: number; closes: number }>();
  const of = (tool: string) => {
    let c = counts.get(tool);
    if (!c) counts.set(tool, (c = { tool, calls: 0, cancels: 0, withToken: 0, closes: 0 }));
    return c;
  };
  order.forEach(of);
  for (const trace of traces) {
    const calls = callsOf(trace);
    for (const { tool, token } of calls.values()) {
      of(tool).calls++;
      if (token) of(tool).withToken++;
    }
    for (const e of trace) {
      // What the runner records when it gives a call up itself (`src/real/runPlan.ts`), never a server's answer.
      if (e.kind !== 'call-settle' || e.from !== 'client' || e.givenUp === undefined) continue;
      const call = calls.get(e.call);
      if (!call) continue;
      if (e.givenUp === 'close') of(call.tool).closes++;
      else of(call.tool).cancels++;
    }
  }
  return [...counts.values()];
}
