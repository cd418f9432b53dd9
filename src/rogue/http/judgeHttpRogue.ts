import { finding, type Finding } from '../../model/finding.ts';
import type { HttpRogueKind } from './httpRogueKinds.ts';
import { isJsonObject } from '../../util/jsonrpc.ts';
import type { HttpExchangeRecord, HttpRogueRunResult } from './runHttpRogue.ts';

export interface HttpRogueVerdict {
  /** The probes' statuses as the table shows them. */
  readonly actual: string;
  /** JSON-RPC error code in the (first) probe's body, if any. */
  readonly code: number | undefined;
  /** The catalogue's exact expectation was not met, but no rule broke (e.g. 400 where 404 was expected). */
  readonly unmet: readonly string[];
  readonly findings: readonly Finding[];
}

const last = (run: HttpRogueRunResult) => run.log.length - 1;

/**
 * Judges one rogue HTTP run from its record alone. Each probe the server cannot accept must get
 * a 4xx: a 2xx (or a 3xx), a 5xx, a Response that did not settle by quiescence or a rejected
 * `handleRequest` is an `http.rejects-bad-input` finding, as are an escape and a failed
 * follow-up. A probe of only notifications or responses must get a bodiless 202 (or a 4xx),
 * otherwise `http.accepted-202`. A cancel that crossed sessions and aborted the other session's
 * handler is `http.rejects-bad-input` too.
 */
export function judgeHttpRogue(kind: HttpRogueKind, run: HttpRogueRunResult): HttpRogueVerdict {
  const findings: Finding[] = [];
  const unmet: string[] = [];
  const probes = run.exchanges.filter((x) => x.probe);
  const at = (x: HttpExchangeRecord) => Math.max(0, run.log.findIndex((l) => l.startsWith(`#${x.n} `)));
  const req = (x: HttpExchangeRecord) => `${x.session}:#${x.n} ${x.label}`;
  const code = probes.map(codeOf).find((c) => c !== undefined);
  let actual: string;

  if (kind.judge) {
    const j = kind.judge(run);
    actual = j.actual;
    for (const m of j.broken) findings.push(finding('http.rejects-bad-input', probes[0] ? at(probes[0]) : last(run), `${kind.name}: ${m}`, probes[0] && req(probes[0])));
    if (kind.name === 'reuse-inflight-id' && j.broken.some((m) => m.includes('orphaned'))) {
      findings.push(finding('http.duplicate-inflight-id', probes[0] ? at(probes[0]) : last(run), `${kind.name}: a POST reusing an in-flight id was accepted and the first POST never got its response`, probes[0] && req(probes[0])));
    }
  } else {
    actual = probes.map((x) => (x.threw ? 'threw' : x.status === undefined ? 'no answer' : `${x.status}${x.settledLate ? ' (late)' : ''}`)).join(', ');
    for (const x of probes) {
      const s = x.status;
      const e = kind.expect.status;
      if (x.threw) findings.push(finding('http.rejects-bad-input', at(x), `${kind.name}: handleRequest rejected instead of answering: ${x.threw}`, req(x)));
      else if (!x.settled) findings.push(finding('http.rejects-bad-input', at(x), `${kind.name}: the ${x.method} got no answer by quiescence (its Response promise did not settle)`, req(x)));
      else if (s !== undefined && s >= 500) findings.push(finding('http.rejects-bad-input', at(x), `${kind.name}: the ${x.method} got HTTP ${s}, a server error, where ${e} was expected`, req(x)));
      else if (s !== undefined && e >= 400 && s < 400) findings.push(finding('http.rejects-bad-input', at(x), `${kind.name}: the server accepted a ${x.method} it cannot accept with HTTP ${s}, where the spec expects ${e}`, req(x)));
      else if (s !== undefined && e === 202 && s < 400 && (s !== 202 || x.bodyText !== '')) {
        findings.push(finding('http.accepted-202', at(x), `${kind.name}: a POST of only notifications or responses got HTTP ${s}${x.bodyText ? ' with a body' : ''}, not a bodiless 202`, req(x)));
      }
      if (s !== undefined && s !== e) unmet.push(`expected HTTP ${e}, got ${s}`);
    }
  }
  if (kind.expect.code !== undefined && code !== kind.expect.code) unmet.push(`expected JSON-RPC code ${kind.expect.code}, got ${code ?? 'none'}`);

  // A cancel on another session must never reach this session's handlers.
  const crossed = run.log.findIndex((l) => /^check: .* ABORTED after B's cancel/.test(l));
  if (crossed >= 0) {
    findings.push(finding('http.rejects-bad-input', crossed, `${kind.name}: a notifications/cancelled posted on session B aborted the handler of a request in flight on session A: sessions are not isolated`));
  }
  for (const e of run.escapes) findings.push(finding('http.rejects-bad-input', last(run), `${kind.name}: an error escaped the server transport: ${e}`));
  if (!run.followUp.ok) findings.push(finding('http.rejects-bad-input', last(run), `${kind.name}: the session is not usable after the rogue request: ${run.followUp.reason}`));
  return { actual, code, unmet, findings };
}

function codeOf(x: HttpExchangeRecord): number | undefined {
  for (const f of x.frames) if (isJsonObject(f) && isJsonObject(f.error) && typeof f.error.code === 'number') return f.error.code;
  return undefined;
}
