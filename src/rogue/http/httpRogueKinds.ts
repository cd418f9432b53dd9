import type { InvariantId } from '../../model/invariants.ts';
import type { JsonValue } from '../../util/json.ts';
import { isJsonObject } from '../../util/jsonrpc.ts';
import { ECHO_TOOL, GATE_TOOL, HTTP_ROGUE_PROTOCOL_VERSION, toolParams, type HttpAttack, type HttpExchangeRecord, type HttpRogueRunResult } from './runHttpRogue.ts';

/**
 * What the spec (basic/transports#streamable-http, revision 2025-11-25) and the SDK's documented
 * behaviour say the server answers a kind's probe: an HTTP status, and the JSON-RPC error code of
 * the body when one is documented. A description for the behaviour table: the model judges the
 * run (`HttpRogueKind.expectation`), by what a rule demands, not by this exact status.
 */
export interface HttpRogueSpec {
  readonly status: number;
  readonly code?: number;
  /** How the table shows it, when the bare status says too little. */
  readonly text?: string;
}

/** What every rogue HTTP run judges, whatever its requests: the ping on session A after them is answered, nothing escapes. */
export const ALWAYS_JUDGED_HTTP: readonly InvariantId[] = ['rpc.survives-bad-input', 'harness.unhandled'];

/** `ids` and `ALWAYS_JUDGED_HTTP`: a kind's expectation. */
const judgedBy = (...ids: InvariantId[]): readonly InvariantId[] => [...ids, ...ALWAYS_JUDGED_HTTP];

export interface HttpRogueKind {
  readonly name: string;
  readonly description: string;
  readonly spec: HttpRogueSpec;
  /** The model's invariants that judge the server's reaction (`judge()` on the run's trace): where its findings, if any, come from. */
  readonly expectation: readonly InvariantId[];
  readonly attack: HttpAttack;
  /** The table's actual-status cell, when the probes' statuses say too little (a description, not a verdict). */
  readonly describe?: (run: HttpRogueRunResult) => string;
}

const json = (v: JsonValue) => JSON.stringify(v);
const call = (id: JsonValue, tool: string) => json({ jsonrpc: '2.0', id, method: 'tools/call', params: toolParams(tool) });

/** Id the reuse and cross-session kinds keep in flight on session A. */
export const INFLIGHT_ID = 7;

const answered = (x: HttpExchangeRecord | undefined, id: JsonValue): boolean =>
  !!x && x.bodyEnded && x.frames.some((f) => isJsonObject(f) && JSON.stringify(f.id) === JSON.stringify(id) && 'result' in f);
const statusOf = (x: HttpExchangeRecord | undefined): string => (!x ? 'not sent' : x.threw ? 'threw' : x.status === undefined ? 'no answer' : String(x.status));

/** A valid `tools/call` POST on A with the given header overrides: the shape of the header kinds. */
const headerProbe = (label: string, overrides: Record<string, string | null>, extra: { method?: string; body?: string | null } = {}): HttpAttack =>
  async (ctx) => {
    await ctx.send(label, 'A', {
      headers: ctx.headers('A', overrides),
      ...(extra.method && { method: extra.method }),
      ...(extra.body !== null && { body: extra.body ?? call('rogue-1', ECHO_TOOL) }),
      probe: true,
    });
  };

const bodyProbe = (label: string, body: string): HttpAttack => async (ctx) => {
  await ctx.send(label, 'A', { headers: ctx.headers('A'), body, probe: true });
};

/** The catalogue: requests a correct Streamable HTTP client never sends, with what the server should answer. */
export const httpRogueKinds: readonly HttpRogueKind[] = [
  {
    name: 'reuse-inflight-id',
    description: `a second tools/call POST reuses id ${INFLIGHT_ID} while the first (gate tool) still runs`,
    spec: { status: 400, text: '4xx for the 2nd, or both answered' },
    expectation: judgedBy('http.duplicate-inflight-id', 'http.exchange-completes'),
    attack: async (ctx) => {
      await ctx.send(`tools/call id=${INFLIGHT_ID} (gate)`, 'A', { headers: ctx.headers('A'), body: call(INFLIGHT_ID, GATE_TOOL) });
      await ctx.send(`tools/call id=${INFLIGHT_ID} again (echo)`, 'A', { headers: ctx.headers('A'), body: call(INFLIGHT_ID, ECHO_TOOL), probe: true });
    },
    describe: (run) => {
      const [first, second] = run.exchanges.filter((x) => x.label.startsWith(`tools/call id=${INFLIGHT_ID}`));
      const mark = (x: HttpExchangeRecord | undefined) => `${statusOf(x)}${answered(x, INFLIGHT_ID) ? ' answered' : x?.bodyEnded ? ' no-result' : ' open'}`;
      return `1st ${mark(first)}, 2nd ${mark(second)}`;
    },
  },
  {
    name: 'cancel-across-sessions',
    description: `session B posts notifications/cancelled for id ${INFLIGHT_ID}, in flight on session A (gate tool)`,
    spec: { status: 202, text: "202, A's handler not aborted" },
    expectation: judgedBy('cancel.same-session', 'http.accepted-202'),
    attack: async (ctx) => {
      await ctx.send(`tools/call id=${INFLIGHT_ID} (gate)`, 'A', { headers: ctx.headers('A'), body: call(INFLIGHT_ID, GATE_TOOL) });
      await ctx.send('notifications/cancelled from B', 'B', {
        headers: ctx.headers('B'),
        body: json({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: INFLIGHT_ID, reason: 'rogue' } }),
        probe: true,
      });
      const h = ctx.handler('A', INFLIGHT_ID);
      ctx.note(`check: A's handler id=${INFLIGHT_ID} ${h ? (h.aborted ? 'ABORTED' : 'not aborted') : 'never started'} after B's cancel`);
    },
  },
  {
    name: 'batch-of-notifications',
    description: 'a JSON array of two notifications (JSON-RPC batch; removed from MCP in 2025-06-18)',
    spec: { status: 202 },
    expectation: judgedBy('http.accepted-202'),
    attack: bodyProbe('batch [2 notifications]', json([
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
    ])),
  },
  { name: 'garbage-body', description: 'a body that is not JSON', spec: { status: 400, code: -32700 }, expectation: judgedBy('http.rejects-bad-input'), attack: bodyProbe('garbage', 'this is {not json') },
  { name: 'empty-body', description: 'a POST with an empty body', spec: { status: 400, code: -32700 }, expectation: judgedBy('http.rejects-bad-input'), attack: bodyProbe('empty', '') },
  {
    name: 'json-non-object',
    description: 'a JSON value that is no message: 42 (JSON-RPC 2.0 answers -32600 Invalid Request)',
    spec: { status: 400, code: -32600 },
    expectation: judgedBy('http.rejects-bad-input'),
    attack: bodyProbe('42', '42'),
  },
  { name: 'missing-accept', description: 'a valid tools/call POST without an Accept header', spec: { status: 406 }, expectation: judgedBy('http.rejects-bad-input'), attack: headerProbe('no Accept', { accept: null }) },
  {
    name: 'accept-without-sse',
    description: 'Accept: application/json only (the client MUST list text/event-stream too)',
    spec: { status: 406 },
    expectation: judgedBy('http.rejects-bad-input'),
    attack: headerProbe('Accept: application/json', { accept: 'application/json' }),
  },
  { name: 'wrong-content-type', description: 'a JSON body sent as Content-Type: text/plain', spec: { status: 415 }, expectation: judgedBy('http.rejects-bad-input'), attack: headerProbe('Content-Type: text/plain', { 'content-type': 'text/plain' }) },
  { name: 'missing-session-id', description: 'a tools/call POST without Mcp-Session-Id after initialize', spec: { status: 400 }, expectation: judgedBy('http.session-required-400'), attack: headerProbe('no Mcp-Session-Id', { 'mcp-session-id': null }) },
  {
    name: 'unknown-session-id',
    description: 'a tools/call POST with an Mcp-Session-Id the server never issued',
    spec: { status: 404, code: -32001 },
    expectation: judgedBy('http.rejects-bad-input'),
    attack: headerProbe('Mcp-Session-Id: session-unknown', { 'mcp-session-id': 'session-unknown' }),
  },
  {
    name: 'unsupported-protocol-version',
    description: 'MCP-Protocol-Version: 1999-01-01 on a tools/call POST',
    spec: { status: 400 },
    expectation: judgedBy('http.rejects-bad-input'),
    attack: headerProbe('MCP-Protocol-Version: 1999-01-01', { 'mcp-protocol-version': '1999-01-01' }),
  },
  {
    name: 'second-initialize',
    description: 'initialize again on an initialized session (with its session id)',
    spec: { status: 400, code: -32600 },
    expectation: judgedBy('http.rejects-bad-input'),
    attack: bodyProbe(
      'initialize again',
      json({ jsonrpc: '2.0', id: 'rogue-init', method: 'initialize', params: { protocolVersion: HTTP_ROGUE_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'rogue', version: '0' } } }),
    ),
  },
  {
    name: 'get-without-sse-accept',
    description: 'GET (standalone stream) with Accept: application/json',
    spec: { status: 406 },
    expectation: judgedBy('http.rejects-bad-input'),
    attack: headerProbe('GET Accept: application/json', { accept: 'application/json', 'content-type': null }, { method: 'GET', body: null }),
  },
  { name: 'put', description: 'PUT: a method the transport does not serve', spec: { status: 405 }, expectation: judgedBy('http.rejects-bad-input'), attack: headerProbe('PUT', {}, { method: 'PUT' }) },
  {
    name: 'response-unknown-id',
    description: 'a JSON-RPC result POSTed for an id the server never used',
    spec: { status: 202 },
    expectation: judgedBy('http.accepted-202'),
    attack: bodyProbe('result id=nobody-asked', json({ jsonrpc: '2.0', id: 'nobody-asked', result: {} })),
  },
  {
    name: 'request-in-batch',
    description: 'a JSON array of a tools/call and a notification (batches were removed in 2025-06-18)',
    spec: { status: 400, text: '400, or 200 answering the call' },
    expectation: judgedBy('http.exchange-completes'),
    attack: bodyProbe('batch [tools/call, notification]', json([
      { jsonrpc: '2.0', id: 'rogue-b', method: 'tools/call', params: toolParams(ECHO_TOOL) },
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
    ])),
    describe: (run) => {
      const x = run.exchanges.find((e) => e.probe);
      return `${statusOf(x)}${x && answered(x, 'rogue-b') ? ' answered' : ''}`;
    },
  },
];
