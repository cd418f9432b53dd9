import { idKey } from '../../model/ids.ts';
import type { Plan } from '../../real/plan.ts';
import type { HandlerProgram } from '../../sim/scenario.ts';
import type { TraceEvent } from '../../sim/trace.ts';
import { isJsonObject } from '../../util/jsonrpc.ts';
import type { CaseScript, ScriptedHandler } from '../Target.ts';
import { programOf } from './testbedCases.ts';

/** Each call's program, by its label. */
export function programsOf(plan: Plan): Map<string, HandlerProgram> {
  const programs = new Map<string, HandlerProgram>();
  for (const c of plan.calls) {
    const p = programOf(c);
    if (p) programs.set(c.label, p);
  }
  return programs;
}

/**
 * What a test-bed case's script says of its handlers: each call's program (mcp-sim's own: it
 * ignores its abort, hangs or sleeps as written), whether the client cancelled it, and the
 * handlers still running when the client closed, read from the observed run. A finding the script
 * explains is the script's (src/campaign/conduct.ts `scriptExplains`), never the SDK's.
 */
export function testbedScript(plan: Plan, trace: readonly TraceEvent[], hangAfterMs: number): CaseScript {
  return caseScript(plan, programsOf(plan), trace, hangAfterMs);
}

/** What the case's script says of each call's handler, from the plan and the observed run. */
function caseScript(plan: Plan, programs: ReadonlyMap<string, HandlerProgram>, trace: readonly TraceEvent[], hangAfterMs: number): CaseScript {
  const ids = new Map<string, string>();
  const cancelled = new Set<string>();
  const started = new Set<string>();
  const ended = new Set<string>();
  let closed = false;
  const openAtClose = new Set<string>();
  for (const e of trace) {
    if (e.kind === 'call-start' && e.id !== undefined) ids.set(idKey(e.id), e.call);
    const label = 'id' in e && e.kind !== 'call-start' && (typeof e.id === 'string' || typeof e.id === 'number') ? ids.get(idKey(e.id)) : undefined;
    if (e.kind === 'send' && e.from === 'client' && isJsonObject(e.frame) && e.frame.method === 'notifications/cancelled' && isJsonObject(e.frame.params)) {
      const of = ids.get(idKey(e.frame.params.requestId));
      if (of) cancelled.add(of);
    }
    if (label !== undefined && e.kind === 'handler-start') started.add(label);
    if (label !== undefined && e.kind === 'handler-end') ended.add(label);
    // The client's close: its own early close, stdin EOF reaching the server, or the session's DELETE.
    const closes = (e.kind === 'action' && e.action === 'close the connection') || (e.kind === 'eof' && e.to === 'server') || (e.kind === 'http-request' && e.at === 'client' && e.method === 'DELETE');
    if (closes && !closed) {
      closed = true;
      for (const l of started) if (!ended.has(l)) openAtClose.add(l);
    }
  }
  const handlers = new Map<string, ScriptedHandler>();
  for (const c of plan.calls) {
    const program = programs.get(c.label);
    if (program) handlers.set(c.label, { label: c.label, program, cancelled: cancelled.has(c.label) });
  }
  return { handler: (label) => handlers.get(label), openAtClose: [...openAtClose].flatMap((l) => (handlers.has(l) ? [handlers.get(l)!] : [])), hangAfterMs };
}
