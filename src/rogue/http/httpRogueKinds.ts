import type { JsonValue } from '../../util/json.ts';
import { isJsonObject } from '../../util/jsonrpc.ts';
import { ECHO_TOOL, GATE_TOOL, HTTP_ROGUE_PROTOCOL_VERSION, toolParams, type HttpAttack, type HttpExchangeRecord, type HttpRogueRunResult } from './runHttpRogue.ts';

/**
 * What the spec (basic/transports#streamable-http, revision 2025-11-25) and the SDK's documented
 * behaviour expect for a kind's probe: an HTTP status, and the JSON-RPC error code of the body
 * when one is expected. `accepted` is a 202 (a POST of only notifications or responses).
 */
export interface HttpRogueExpectation {
  readonly status: number;
  readonly code?: number;
  /** How the table shows it, when the bare status says too little. */
  readonly text?: string;
}

export interface HttpRogueKind {
  readonly name: string;
  readonly description: string;
  readonly expect: HttpRogueExpectation;
  readonly attack: HttpAttack;
  /**
   * Replaces the generic status judgement of the probes: returns the broken rules in words
   * (each becomes a finding), and the table's actual-status cell.
   */
  readonly judge?: (run: HttpRogueRunResult) => { readonly broken: readonly string[]; readonly actual: string };
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
    expect: { status: 400, text: '4xx for the 2nd, or both answered' },
    attack: async (ctx) => {
      await ctx.send(`tools/call id=${INFLIGHT_ID} (gate)`, 'A', { headers: ctx.headers('A'), body: call(INFLIGHT_ID, GATE_TOOL) });
      await ctx.send(`tools/call id=${INFLIGHT_ID} again (echo)`, 'A', { headers: ctx.headers('A'), body: call(INFLIGHT_ID, ECHO_TOOL), probe: true });
    },
    judge: (run) => {
      const [first, second] = run.exchanges.filter((x) => x.label.startsWith(`tools/call id=${INFLIGHT_ID}`));
      const broken: string[] = [];
      const rejected = second?.status !== undefined && second.status >= 400 && second.status < 500;
      if (second?.threw) broken.push(`handleRequest rejected the second POST: ${second.threw}`);
      else if (second?.status === undefined) broken.push('the second POST got no answer by quiescence');
      else if (second.status >= 500) broken.push(`the second POST got HTTP ${second.status}`);
      else if (!rejected && !answered(second, INFLIGHT_ID)) broken.push(`the second POST got HTTP ${second.status} but never a response for id ${INFLIGHT_ID}`);
      if (!answered(first, INFLIGHT_ID)) {
        broken.push(
          `the first POST (id ${INFLIGHT_ID}, still running when the second arrived) was orphaned: ${
            first?.status === undefined ? 'its Response never settled' : `HTTP ${first.status}, body ${first.bodyEnded ? 'ended without its response' : 'never ended'}`
          }, although its handler ${((e) => (e ? `ended (${e})` : 'never ended'))(run.handlers.find((h) => h.session === 'A' && h.id === INFLIGHT_ID && h.tool === GATE_TOOL)?.ended)}`,
        );
      }
      const mark = (x: HttpExchangeRecord | undefined) => `${statusOf(x)}${answered(x, INFLIGHT_ID) ? ' answered' : x?.bodyEnded ? ' no-result' : ' open'}`;
      return { broken, actual: `1st ${mark(first)}, 2nd ${mark(second)}` };
    },
  },
  {
    name: 'cancel-across-sessions',
    description: `session B posts notifications/cancelled for id ${INFLIGHT_ID}, in flight on session A (gate tool)`,
    expect: { status: 202, text: "202, A's handler not aborted" },
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
    expect: { status: 202 },
    attack: bodyProbe('batch [2 notifications]', json([
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
    ])),
  },
  { name: 'garbage-body', description: 'a body that is not JSON', expect: { status: 400, code: -32700 }, attack: bodyProbe('garbage', 'this is {not json') },
  { name: 'empty-body', description: 'a POST with an empty body', expect: { status: 400, code: -32700 }, attack: bodyProbe('empty', '') },
  {
    name: 'json-non-object',
    description: 'a JSON value that is no message: 42 (JSON-RPC 2.0 answers -32600 Invalid Request)',
    expect: { status: 400, code: -32600 },
    attack: bodyProbe('42', '42'),
  },
  { name: 'missing-accept', description: 'a valid tools/call POST without an Accept header', expect: { status: 406 }, attack: headerProbe('no Accept', { accept: null }) },
  {
    name: 'accept-without-sse',
    description: 'Accept: application/json only (the client MUST list text/event-stream too)',
    expect: { status: 406 },
    attack: headerProbe('Accept: application/json', { accept: 'application/json' }),
  },
  { name: 'wrong-content-type', description: 'a JSON body sent as Content-Type: text/plain', expect: { status: 415 }, attack: headerProbe('Content-Type: text/plain', { 'content-type': 'text/plain' }) },
  { name: 'missing-session-id', description: 'a tools/call POST without Mcp-Session-Id after initialize', expect: { status: 400 }, attack: headerProbe('no Mcp-Session-Id', { 'mcp-session-id': null }) },
  {
    name: 'unknown-session-id',
    description: 'a tools/call POST with an Mcp-Session-Id the server never issued',
    expect: { status: 404, code: -32001 },
    attack: headerProbe('Mcp-Session-Id: session-unknown', { 'mcp-session-id': 'session-unknown' }),
  },
  {
    name: 'unsupported-protocol-version',
    description: 'MCP-Protocol-Version: 1999-01-01 on a tools/call POST',
    expect: { status: 400 },
    attack: headerProbe('MCP-Protocol-Version: 1999-01-01', { 'mcp-protocol-version': '1999-01-01' }),
  },
  {
    name: 'second-initialize',
    description: 'initialize again on an initialized session (with its session id)',
    expect: { status: 400, code: -32600 },
    attack: bodyProbe(
      'initialize again',
      json({ jsonrpc: '2.0', id: 'rogue-init', method: 'initialize', params: { protocolVersion: HTTP_ROGUE_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'rogue', version: '0' } } }),
    ),
  },
  {
    name: 'get-without-sse-accept',
    description: 'GET (standalone stream) with Accept: application/json',
    expect: { status: 406 },
    attack: headerProbe('GET Accept: application/json', { accept: 'application/json', 'content-type': null }, { method: 'GET', body: null }),
  },
  { name: 'put', description: 'PUT: a method the transport does not serve', expect: { status: 405 }, attack: headerProbe('PUT', {}, { method: 'PUT' }) },
  {
    name: 'response-unknown-id',
    description: 'a JSON-RPC result POSTed for an id the server never used',
    expect: { status: 202 },
    attack: bodyProbe('result id=nobody-asked', json({ jsonrpc: '2.0', id: 'nobody-asked', result: {} })),
  },
  {
    name: 'request-in-batch',
    description: 'a JSON array of a tools/call and a notification (batches were removed in 2025-06-18)',
    expect: { status: 400, text: '400, or 200 answering the call' },
    attack: bodyProbe('batch [tools/call, notification]', json([
      { jsonrpc: '2.0', id: 'rogue-b', method: 'tools/call', params: toolParams(ECHO_TOOL) },
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
    ])),
    judge: (run) => {
      const x = run.exchanges.find((e) => e.probe);
      const broken: string[] = [];
      if (x?.threw) broken.push(`handleRequest rejected: ${x.threw}`);
      else if (x?.status === undefined) broken.push('no answer by quiescence');
      else if (x.status >= 500) broken.push(`HTTP ${x.status}`);
      else if (x.status < 400 && !answered(x, 'rogue-b')) broken.push(`HTTP ${x.status} without a response to the call in the batch`);
      return { broken, actual: `${statusOf(x)}${x && answered(x, 'rogue-b') ? ' answered' : ''}` };
    },
  },
];
