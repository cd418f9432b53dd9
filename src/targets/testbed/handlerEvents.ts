import type { HandlerProgram } from '../../sim/scenario.ts';
import type { TraceEvent, TraceEventBody, WireId } from '../../sim/trace.ts';

/** The prefix of a side-channel line on a test bed's stderr (testbeds/PROGRAM.md). */
export const SIDE_CHANNEL_PREFIX = 'mcp-sim-event ';

/** One side-channel line, as a test bed writes it. */
export interface SideChannelEvent {
  readonly event: 'handler-start' | 'abort-observed' | 'step' | 'handler-end';
  /** The request's JSON-RPC id, where the SDK tells the handler (go-sdk v1.8.0 does not). */
  readonly id?: WireId;
  /** The call's label, from the tool's `call` argument: names the call when `id` cannot. */
  readonly call?: string;
  readonly index?: number;
  readonly outcome?: 'result' | 'error' | 'aborted' | 'swallowed';
}

/** A side-channel line that does not follow PROGRAM.md: the test bed's bug, shown, never dropped. */
export class SideChannelError extends Error {
  override name = 'SideChannelError';
}

function parse(line: string): SideChannelEvent {
  let body: unknown;
  try {
    body = JSON.parse(line.slice(SIDE_CHANNEL_PREFIX.length));
  } catch {
    throw new SideChannelError(`side channel: ${JSON.stringify(line)} is not \`mcp-sim-event {json}\` (testbeds/PROGRAM.md)`);
  }
  const e = body as Partial<SideChannelEvent>;
  const known = ['handler-start', 'abort-observed', 'step', 'handler-end'];
  if (typeof e !== 'object' || e === null || !known.includes(e.event as string) || (typeof e.id !== 'number' && typeof e.id !== 'string' && typeof e.call !== 'string')) {
    throw new SideChannelError(`side channel: ${JSON.stringify(line)} needs "event" (${known.join(', ')}) and "id" or "call" (testbeds/PROGRAM.md)`);
  }
  return e as SideChannelEvent;
}

/**
 * The trace with each side-channel line of the test bed's stderr turned into the simulator's own
 * handler events (`handler-start`, `handler-step` with the program's step, `handler-abort`,
 * `handler-end`), in the order the lines were written; other stderr text stays a `stderr` event.
 * `programOf` gives the program a request id ran (the step's `op`); a line that names only its
 * call (`call`, no `id`) takes the id that call was sent with (its `call-start`). Stderr is its own pipe, so a
 * handler event's place among the frames is as close as the two pipes allow, not exact.
 */
export function withHandlerEvents(trace: readonly TraceEvent[], programOf: (id: WireId) => HandlerProgram | undefined, earlierCalls: ReadonlyMap<string, WireId> = new Map()): TraceEvent[] {
  const out: TraceEvent[] = [];
  let partial = '';
  // A slice of a longer run: a handler of an earlier slice's call may still write its events here.
  const idOfCall = new Map<string, WireId>(earlierCalls);
  const push = (e: TraceEvent, body: TraceEventBody) => out.push({ ...body, i: out.length, step: e.step, t: e.t } as TraceEvent);
  let last: TraceEvent | undefined;
  for (const e of trace) {
    if (e.kind !== 'stderr') {
      if (e.kind === 'call-start' && e.id !== undefined) idOfCall.set(e.call, e.id);
      push(e, e);
      continue;
    }
    last = e;
    const lines = (partial + e.text).split('\n');
    partial = lines.pop() ?? '';
    // Ordinary stderr lines between side-channel lines keep their place among them.
    const other: string[] = [];
    const flush = () => {
      if (other.length > 0) push(e, { kind: 'stderr', text: `${other.splice(0).join('\n')}\n` });
    };
    for (const line of lines) {
      if (!line.startsWith(SIDE_CHANNEL_PREFIX)) {
        other.push(line);
        continue;
      }
      flush();
      const s = parse(line);
      const id = s.id ?? idOfCall.get(s.call!);
      if (id === undefined) throw new SideChannelError(`side channel: ${JSON.stringify(line)} names call ${JSON.stringify(s.call)}, which mcp-sim never sent`);
      const where = { side: 'server' as const, conn: 0, id };
      switch (s.event) {
        case 'handler-start':
          push(e, { kind: 'handler-start', ...where, method: 'tools/call' });
          break;
        case 'abort-observed':
          push(e, { kind: 'handler-abort', ...where, reason: 'cancelled' });
          break;
        case 'step': {
          const op = programOf(id)?.steps[s.index ?? -1];
          if (op === undefined) throw new SideChannelError(`side channel: step ${s.index} of request ${id} is not a step of its program`);
          push(e, { kind: 'handler-step', ...where, index: s.index!, op });
          break;
        }
        case 'handler-end':
          push(e, { kind: 'handler-end', ...where, outcome: s.outcome ?? 'result' });
          break;
      }
    }
    flush();
  }
  // Text after the last newline (a process that died mid-line) is kept, never dropped.
  if (partial !== '' && last !== undefined) push(last, { kind: 'stderr', text: partial });
  return out;
}
