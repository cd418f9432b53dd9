// The class-data training session of install.sh: waits for the test bed's "listening on <url>"
// line in its stderr log (argv[2]), then initializes a stateful session and runs one program
// with a progress step. Exit 0 when the call was answered; install.sh then stops the server.
import { readFileSync } from 'node:fs';

const log = process.argv[2];
const deadline = Date.now() + 60_000;
let url;
while (!url && Date.now() < deadline) {
  url = /listening on (http:\/\/\S+)/.exec(readFileSync(log, 'utf8'))?.[1];
  if (!url) await new Promise((r) => setTimeout(r, 100));
}
if (!url) process.exit(1);
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const post = async (body, session) => {
  const res = await fetch(url, { method: 'POST', headers: { ...headers, ...(session && { 'mcp-session-id': session }) }, body: JSON.stringify(body) });
  return { session: res.headers.get('mcp-session-id'), text: await res.text() };
};
const init = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'install', version: '1' } } });
await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, init.session);
const program = { steps: [{ kind: 'progress', progress: 1 }, { kind: 'sleep', ms: 5 }], end: { kind: 'result' }, onAbort: 'honour' };
const call = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'run', arguments: { program, call: 'training' }, _meta: { progressToken: 1 } } }, init.session);
process.exit(call.text.includes('"id":1') ? 0 : 1);
