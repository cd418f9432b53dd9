import { describe, expect, it } from 'vitest';
import { globalsRestored } from '../../src/sim/realGlobals.ts';
import {
  answersGarbageWith200,
  answersGarbageWith500,
  formatHttpRogueTable,
  losesSessionOnGarbage,
  httpRogueCampaign,
  httpRogueKinds,
  INFLIGHT_ID,
  neverAnswersGarbage,
  runHttpKind,
  runHttpRogue,
  type HttpRogueKind,
  type HttpRogueRow,
} from '../../src/rogue/http/index.ts';

const kind = (name: string): HttpRogueKind => {
  const k = httpRogueKinds.find((x) => x.name === name);
  if (!k) throw new Error(`no kind ${name}`);
  return k;
};
const row = (rows: readonly HttpRogueRow[], name: string): HttpRogueRow => rows.find((r) => r.kind === name)!;
const ids = (r: HttpRogueRow) => r.findings.map((f) => f.invariant);

describe('rogue HTTP client: the catalogue against the real SDK server transport (stateful, SSE)', async () => {
  const { rows, findings } = await httpRogueCampaign();

  it('should run every catalogued kind (at least 14), each with a status and a usable session after it', () => {
    expect(httpRogueKinds.length).toBeGreaterThanOrEqual(14);
    expect(rows.map((r) => r.kind)).toEqual(httpRogueKinds.map((k) => k.name));
    for (const r of rows) expect(r.actual, r.kind).not.toBe('');
    expect(formatHttpRogueTable(rows).split('\n')).toHaveLength(rows.length + 2);
    expect(globalsRestored()).toEqual([]);
  });

  it('should record the important statuses and codes the SDK gives', () => {
    expect(row(rows, 'wrong-content-type').actual).toBe('415');
    expect(row(rows, 'missing-accept').actual).toBe('406');
    expect(row(rows, 'accept-without-sse').actual).toBe('406');
    expect(row(rows, 'get-without-sse-accept').actual).toBe('406');
    expect(row(rows, 'unknown-session-id').actual).toBe('404');
    expect(row(rows, 'unknown-session-id').code).toBe(-32001);
    expect(row(rows, 'garbage-body').actual).toBe('400');
    expect(row(rows, 'garbage-body').code).toBe(-32700);
    expect(row(rows, 'empty-body').actual).toBe('400');
    expect(row(rows, 'missing-session-id').actual).toBe('400');
    expect(row(rows, 'unsupported-protocol-version').actual).toBe('400');
    expect(row(rows, 'second-initialize').code).toBe(-32600);
    expect(row(rows, 'put').actual).toBe('405');
    expect(row(rows, 'response-unknown-id').actual).toBe('202');
    expect(row(rows, 'batch-of-notifications').actual).toBe('202');
    expect(row(rows, 'cancel-across-sessions').actual).toBe('202');
  });

  it('should find nothing where the SDK rejects or accepts as the spec says, and keep every session usable', () => {
    for (const r of rows) expect(r.followUpOk, r.kind).toBe(true);
    const clean = rows.filter((r) => r.kind !== 'reuse-inflight-id');
    for (const r of clean) expect(r.findings, r.kind).toEqual([]);
  });

  it("should not let a cancel on session B abort session A's handler", async () => {
    const run = await runHttpRogue(kind('cancel-across-sessions').attack);
    const h = run.handlers.find((x) => x.session === 'A' && x.id === INFLIGHT_ID);
    expect(h?.aborted).toBe(false);
    expect(h?.ended).toBe('result');
    const first = run.exchanges.find((x) => x.session === 'A' && x.label.startsWith(`tools/call id=${INFLIGHT_ID}`));
    expect(first?.bodyEnded).toBe(true);
  });

  it('should report the orphaned first POST when an in-flight id is reused (SDK 1.32.2 accepts the second)', () => {
    const r = row(rows, 'reuse-inflight-id');
    expect(ids(r)).toContain('http.duplicate-inflight-id');
    expect(ids(r)).toContain('http.exchange-completes');
    expect(findings.every((f) => f.kind === 'reuse-inflight-id')).toBe(true);
    // The model cannot tell the two handlers of one id apart: what it says of them follows from the rogue's reuse.
    expect(r.findings.filter((f) => f.invariant === 'liveness.handler-ends').map((f) => f.rootCause?.invariant)).toEqual(['rpc.request-id-unique']);
  });

  it('should name, for every kind, the invariants that judge it, and find none outside them', () => {
    for (const r of rows) for (const f of r.findings.filter((x) => !x.rootCause)) expect(r.expectation, `${r.kind}: ${f.invariant}`).toContain(f.invariant);
  });
});

describe('rogue HTTP client: determinism', () => {
  it('should give identical rows for two campaigns with the same seed', async () => {
    const a = await httpRogueCampaign();
    const b = await httpRogueCampaign();
    expect(b.rows).toEqual(a.rows);
    expect(new Set(a.rows.map((r) => r.hash)).size).toBe(a.rows.length);
  });
});

describe('rogue HTTP client: fixture pairs for http.rejects-bad-input and rpc.survives-bad-input', () => {
  it('should not flag the real transport on a garbage body', async () => {
    const r = await runHttpKind(kind('garbage-body'));
    expect(r.findings).toEqual([]);
  });

  it('should flag a wrapper that answers a garbage body with 200', async () => {
    const r = await runHttpKind(kind('garbage-body'), { wrap: answersGarbageWith200 });
    expect(r.actual).toBe('200');
    expect(ids(r)).toEqual(['http.rejects-bad-input']);
    expect(r.findings[0]!.message).toMatch(/answered POST #\d+ \(a body that is not JSON\) with HTTP 200, as if it were sound/);
  });

  it('should flag a wrapper that never answers a garbage body', async () => {
    const r = await runHttpKind(kind('garbage-body'), { wrap: neverAnswersGarbage });
    expect(r.actual).toBe('no answer');
    expect(ids(r)).toEqual(['http.rejects-bad-input']);
    expect(r.findings[0]!.message).toMatch(/never answered POST #\d+ \(a body that is not JSON\)/);
    expect(r.followUpOk).toBe(true);
  });

  it('should flag a wrapper that loses the session after refusing a garbage body (rpc.survives-bad-input: the ping on it gets 404)', async () => {
    const r = await runHttpKind(kind('garbage-body'), { wrap: losesSessionOnGarbage });
    expect(r.actual).toBe('400');
    expect(ids(r)).toEqual(['rpc.survives-bad-input']);
    expect(r.followUpOk).toBe(false);
  });

  it('should flag a wrapper that answers a garbage body with 500', async () => {
    const r = await runHttpKind(kind('garbage-body'), { wrap: answersGarbageWith500 });
    expect(ids(r)).toEqual(['http.rejects-bad-input']);
    expect(r.findings[0]!.message).toMatch(/HTTP 500/);
  });
});
