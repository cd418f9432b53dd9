import type { JsonValue } from '../util/json.ts';

/**
 * A real-time case: what the client does and when, relative to what it has observed. The server's
 * clock cannot be virtual, so every action of the client is placed after an anchor (the end of
 * the handshake, a call's request written, a call's n-th progress) plus a delay in real ms.
 */
export type Anchor =
  /** `ms` after the handshake ended. */
  | { readonly kind: 'start'; readonly ms: number }
  /** `ms` after the request of `call` was written. */
  | { readonly kind: 'written'; readonly call: string; readonly ms: number }
  /** `ms` after the `n`-th progress notification of `call` was read (never, if it has fewer). */
  | { readonly kind: 'progress'; readonly call: string; readonly n: number; readonly ms: number };

/** How a call is given up: a `notifications/cancelled`, a dropped POST stream (HTTP), or both. */
export type CancelHow = 'notify' | 'drop' | 'both';

export interface PlannedCall {
  /** `c1`, `c2`, …: the call's label in the trace and the report. */
  readonly label: string;
  readonly tool: string;
  readonly arguments: { readonly [key: string]: JsonValue };
  /** The request's `_meta.progressToken`; none: no progress asked for. */
  readonly progressToken?: number | string;
  /** When the request is written. */
  readonly at: Anchor;
  /** When the client cancels it (only while it is in flight, as a correct caller does). */
  readonly cancel?: Anchor;
  readonly cancelHow?: CancelHow;
  /** The client's timeout: at its end the call is given up and cancelled (`reason: "timeout"`). */
  readonly timeout?: { readonly ms: number; readonly resetOnProgress: boolean };
  /** Send this request with the id of another call still in flight (a duplicate in-flight id). */
  readonly sameIdAs?: string;
}

/** How the client answers server→client requests (sampling, elicitation, roots, ping). */
export type ServerRequestPolicy = 'answer' | 'late' | 'error';

export interface Plan {
  readonly calls: readonly PlannedCall[];
  readonly serverRequests: ServerRequestPolicy;
  /**
   * When the client closes the connection with calls maybe still in flight (stdin EOF, or the
   * session's DELETE): every call not settled is given up then, and the run ends. @default at the end
   */
  readonly close?: Anchor;
}

/** The plan without any cancel, drop or timeout: the counterfactual run that tells how long each call takes. */
export function withoutCancels(plan: Plan): Plan {
  const { close: _close, ...rest } = plan;
  return { ...rest, calls: plan.calls.map(({ cancel: _c, cancelHow: _h, timeout: _t, ...call }) => call) };
}

/** One line per call, for reports: `c1 work {"steps":3} token=1 at start+0ms, cancel 5ms after c1 written`. */
export function describePlan(plan: Plan): string[] {
  const anchor = (a: Anchor) => (a.kind === 'start' ? `${a.ms} ms after the handshake` : a.kind === 'written' ? `${a.ms} ms after ${a.call} was written` : `${a.ms} ms after progress #${a.n} of ${a.call}`);
  const lines = plan.calls.map((c) => {
    const parts = [`${c.label}: ${c.tool} ${JSON.stringify(c.arguments)}`, c.progressToken === undefined ? 'no progress token' : `progress token ${JSON.stringify(c.progressToken)}`, `sent ${anchor(c.at)}`];
    if (c.sameIdAs) parts.push(`with the id of ${c.sameIdAs}`);
    if (c.cancel) parts.push(`${c.cancelHow === 'drop' ? 'POST stream dropped' : c.cancelHow === 'both' ? 'cancelled and its POST stream dropped' : 'cancelled'} ${anchor(c.cancel)}`);
    if (c.timeout) parts.push(`timeout ${c.timeout.ms} ms${c.timeout.resetOnProgress ? ', reset on progress' : ''}`);
    return parts.join(', ');
  });
  if (plan.close) lines.push(`the client closes the connection ${anchor(plan.close)}`);
  return lines;
}
