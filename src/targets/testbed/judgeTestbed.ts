import { scriptExplains, type CaseScript, type ScriptedHandler } from '../../campaign/conduct.ts';
import { idKey } from '../../model/ids.ts';
import { judgeObserved } from '../../model/judgeObserved.ts';
import type { Plan } from '../../real/plan.ts';
import type { CaseJudge } from '../../campaign/caseVerdict.ts';
import type { HandlerProgram } from '../../sim/scenario.ts';
import type { TraceEvent } from '../../sim/trace.ts';
import { isJsonObject } from '../../util/jsonrpc.ts';
import { withHandlerEvents } from './handlerEvents.ts';
import { programOf } from './testbedCases.ts';

/**
 * A test-bed case, judged: the bed's side channel turned into the model's own handler events
 * (`withHandlerEvents`), then the model on a real clock (`judgeObserved`), so the same rules
 * that judge a simulated run judge the server's side (a handler aborted on cancel and on close,
 * steps after an abort, progress lost). The program is mcp-sim's own script: a finding it
 * explains (`scriptExplains`: it ignores its abort, hangs, sleeps past the bound) is marked the
 * script's, reported apart and never the SDK's; the rest are the SDK's and count.
 */
export const judgeTestbed: CaseJudge = (raw, plan, options) => {
  const programs = new Map<string, HandlerProgram>();
  for (const c of plan.calls) {
    const p = programOf(c);
    if (p) programs.set(c.label, p);
  }
  const labelOfId = new Map<string, string>();
  for (const e of raw) if (e.kind === 'call-start' && e.id !== undefined && !labelOfId.has(idKey(e.id))) labelOfId.set(idKey(e.id), e.call);
  const trace = withHandlerEvents(raw, (id) => {
    const label = labelOfId.get(idKey(id));
    return label === undefined ? undefined : programs.get(label);
  });
  const verdict = judgeObserved(trace, options);
  const script = caseScript(plan, programs, verdict.trace, options.clock.hangAfterMs);
  return {
    ...verdict,
    findings: verdict.findings.map((f) => {
      const explained = scriptExplains(f, script);
      return explained === undefined ? { ...f, owner: 'target' as const } : { ...f, owner: 'script' as const, explained };
    }),
  };
};

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
