import { DEFAULT_PROCESS_START_MS } from '../options/defaults.ts';
import type { JsonValue } from '../util/json.ts';
import { isJsonObject } from '../util/jsonrpc.ts';
import { TOOL } from '../util/toolVersion.ts';
import type { Inbox } from './Inbox.ts';
import { stdoutRefusal } from './stdoutRefusal.ts';
import { BadTargetError, type TargetConnection } from './connection.ts';

/** The protocol revisions a black-box run speaks; a server that answers another one is a bad target. */
export const KNOWN_PROTOCOL_VERSIONS: readonly string[] = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];

/** The revision mcp-sim asks for in `initialize`. */
export const REQUESTED_PROTOCOL_VERSION = '2025-11-25';

/** What `initialize` told about the server. */
export interface ServerHello {
  readonly protocolVersion: string;
  readonly serverInfo: JsonValue;
  readonly capabilities: JsonValue;
}

/** How long a server that wrote a non-JSON line first still has to answer `initialize`. */
const NOT_MCP_GRACE_MS = 1_000;

const responseTo = (id: number) => (f: JsonValue) => isJsonObject(f) && f.id === id && ('result' in f || 'error' in f);

/**
 * `initialize` (id 0) and `notifications/initialized`, bounded by `startMs`. Every way it can fail
 * is a `BadTargetError` that says what the server did: exited (with its last stderr line), wrote
 * something that is not JSON-RPC, answered an error or an unknown protocol revision, or nothing.
 */
export async function handshake(conn: TargetConnection, inbox: Inbox, startMs: number = DEFAULT_PROCESS_START_MS): Promise<ServerHello> {
  conn.send({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: REQUESTED_PROTOCOL_VERSION,
      capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: false } },
      clientInfo: { name: TOOL.name, version: TOOL.version },
    },
  });
  // A line that is not JSON-RPC first: give the answer a short grace, then it is not an MCP server.
  const first = await inbox.waitFor((f) => responseTo(0)(f) || typeof f === 'string', startMs);
  const answer = typeof first === 'string' ? await inbox.waitFor(responseTo(0), NOT_MCP_GRACE_MS) : first;
  // It is an MCP server, but one that prints on stdout: refused at that first line, as mid-run.
  if (answer !== undefined && typeof first === 'string') throw stdoutRefusal(first);
  if (answer === undefined) {
    const garbage = inbox.frames.find((f) => typeof f === 'string');
    if (garbage !== undefined) throw new BadTargetError('not-mcp', `mcp-sim: the server is not an MCP server: it wrote ${JSON.stringify(String(garbage).slice(0, 80))} on stdout, not a JSON-RPC answer to initialize.`);
    const ended = inbox.endedBecause;
    if (ended?.startsWith('command not found')) throw new BadTargetError('not-found', `mcp-sim: ${ended}: check the command and --cwd.`);
    if (ended?.startsWith('the server answered the POST of initialize')) throw new BadTargetError('not-mcp', `mcp-sim: ${ended}, not a JSON-RPC answer: is it an MCP server speaking Streamable HTTP at that URL?`);
    if (ended?.includes('refused')) throw new BadTargetError('refused', `mcp-sim: ${ended}: is the server running, and on that port?`);
    if (ended !== undefined) throw new BadTargetError('exited', `mcp-sim: ${ended} before it answered initialize.`);
    throw new BadTargetError('start-timeout', `mcp-sim: the server did not answer initialize within ${startMs} ms: is it an MCP server speaking newline-delimited JSON-RPC (stdio) or Streamable HTTP at that URL?`);
  }
  const a = answer as Record<string, JsonValue>;
  if (isJsonObject(a.error)) throw new BadTargetError('initialize-error', `mcp-sim: the server answered initialize with an error: ${JSON.stringify(a.error).slice(0, 200)}.`);
  const result = isJsonObject(a.result) ? a.result : {};
  const version = result.protocolVersion;
  if (typeof version !== 'string' || !KNOWN_PROTOCOL_VERSIONS.includes(version)) {
    throw new BadTargetError('protocol-version', `mcp-sim: the server answered initialize with protocol version ${JSON.stringify(version)}; mcp-sim speaks ${KNOWN_PROTOCOL_VERSIONS.join(', ')}: update the server's SDK.`);
  }
  conn.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { protocolVersion: version, serverInfo: result.serverInfo ?? null, capabilities: result.capabilities ?? null };
}
