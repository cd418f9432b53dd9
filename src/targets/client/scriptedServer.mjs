#!/usr/bin/env node
// mcp-sim's scripted MCP server: the peer of an SDK test-bed *client* (testbeds/CLIENT.md).
//
// It is plain Node.js with no dependency, on purpose: an SDK client spawns it as its stdio server
// (or reaches it over Streamable HTTP), from a clone or from the installed package, and it must do
// exactly what its plan says, including what a correct server must not do (answer after a cancel,
// send progress after the response, invent a progress token, cancel its own request to the client).
// An SDK's server would correct those on its own; raw JSON-RPC cannot. Every frame it reads or
// writes goes to the plan's wire log, one JSON line each, with the real milliseconds since start:
// src/targets/client/clientTrace.ts puts that log and the client's side channel into one trace, which the model judges.
//
//   node scriptedServer.mjs PLAN.json                 stdio: newline-delimited JSON-RPC
//   node scriptedServer.mjs PLAN.json --http --port P stateful Streamable HTTP on 127.0.0.1:P
//   node scriptedServer.mjs --example                 prints a plan with one of each step
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';

const EXAMPLE = {
  log: '/tmp/mcp-sim-wire.jsonl',
  calls: {
    c1: {
      steps: [
        { kind: 'progress', progress: 1, total: 3 },
        { kind: 'sleep', ms: 50 },
        { kind: 'request', method: 'sampling/createMessage', cancelAfterMs: 30, graceMs: 200 },
        { kind: 'progress', progress: 2, total: 3, token: 'invented' },
      ],
      end: { kind: 'result' },
      onCancel: 'stop',
      after: [{ kind: 'progress', progress: 9 }],
    },
  },
};

const argv = process.argv.slice(2);
if (argv[0] === '--example') {
  process.stdout.write(`${JSON.stringify(EXAMPLE, null, 2)}\n`);
  process.exit(0);
}
if (!argv[0] || argv[0].startsWith('-')) {
  process.stderr.write('usage: scriptedServer.mjs PLAN.json [--http --port P] | --example\n');
  process.exit(2);
}
/** @type {{log?: string, calls: Record<string, any>, default?: any}} */
const plan = JSON.parse(readFileSync(argv[0], 'utf8'));
const http = argv.includes('--http');
const port = Number(argv[argv.indexOf('--port') + 1]);
const started = performance.now();
if (plan.log) writeFileSync(plan.log, '');

/** One line of the wire log: a frame in or out, or an event of the server's own. */
function log(entry) {
  const line = JSON.stringify({ t: Math.round((performance.now() - started) * 10) / 10, ...entry });
  if (plan.log) appendFileSync(plan.log, `${line}\n`);
}

const sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => resolve(true), ms);
    signal.addEventListener('abort', () => { clearTimeout(timer); resolve(false); }, { once: true });
  });

/** The protocol versions whose lifecycle this server scripts (the 2025 wire: cancel, progress, sessions). */
const PROTOCOL_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];

const SERVER_REQUEST_PARAMS = {
  'sampling/createMessage': { messages: [{ role: 'user', content: { type: 'text', text: 'run' } }], maxTokens: 16 },
  'elicitation/create': { message: 'run', requestedSchema: { type: 'object', properties: {} } },
  'roots/list': {},
};

/**
 * A connection: stdio has one, HTTP one per session. `send(frame, via)` writes a frame, `via`
 * naming the request whose stream carries it over HTTP (undefined: the connection's own).
 */
class Connection {
  constructor(send, name) {
    this.send = send;
    this.name = name;
    /** request id (JSON) → { controller, cancelled, onCancel } */
    this.running = new Map();
    /** server request id → resolve */
    this.waiting = new Map();
    // Its own requests are numbered from 100, apart from the client's ids (a plan's step can
    // ask for id 0, or for the id of the call it runs in, to try an SDK's id handling).
    this.nextId = 100;
  }

  out(frame, via) {
    log({ dir: 'out', conn: this.name, frame });
    this.send(frame, via);
  }

  /** A frame from the client. */
  receive(frame) {
    log({ dir: 'in', conn: this.name, frame });
    if (frame === null || typeof frame !== 'object') return;
    if ('method' in frame && 'id' in frame) return this.request(frame);
    if ('method' in frame) return this.notification(frame);
    if ('id' in frame) {
      const resolve = this.waiting.get(JSON.stringify(frame.id));
      if (resolve) resolve(frame);
    }
  }

  request(frame) {
    const reply = (body) => this.out({ jsonrpc: '2.0', id: frame.id, ...body }, frame.id);
    switch (frame.method) {
      case 'initialize':
        return reply({
          result: {
            // Version negotiation: the client's, where it is one this server speaks, else its newest.
            protocolVersion: PROTOCOL_VERSIONS.includes(frame.params?.protocolVersion) ? frame.params.protocolVersion : PROTOCOL_VERSIONS.at(-1),
            capabilities: { tools: {} },
            serverInfo: { name: 'mcp-sim-scripted-server', version: '1.0.0' },
          },
        });
      case 'ping':
        return reply({ result: {} });
      case 'tools/list':
        return reply({
          result: {
            tools: [{ name: 'run', description: 'runs the plan of its call label', inputSchema: { type: 'object', properties: { call: { type: 'string' } } } }],
          },
        });
      case 'tools/call': {
        const label = frame.params?.arguments?.call;
        const program = plan.calls[label] ?? plan.default;
        if (frame.params?.name !== 'run' || !program) {
          return reply({ error: { code: -32602, message: `no plan for call ${JSON.stringify(label)}` } });
        }
        return void this.run(frame, label, program);
      }
      default:
        return reply({ error: { code: -32601, message: `method not found: ${frame.method}` } });
    }
  }

  notification(frame) {
    if (frame.method !== 'notifications/cancelled') return;
    const entry = this.running.get(JSON.stringify(frame.params?.requestId));
    if (!entry) return log({ event: 'cancel-unknown', conn: this.name, requestId: frame.params?.requestId });
    entry.cancelled = true;
    log({ event: 'cancel-received', conn: this.name, requestId: frame.params.requestId, onCancel: entry.onCancel });
    if (entry.onCancel !== 'continue') entry.controller.abort();
  }

  /** Runs one call's plan: its steps, its end, then its `after` frames. */
  async run(frame, label, program) {
    const controller = new AbortController();
    const onCancel = program.onCancel ?? 'stop';
    const entry = { controller, cancelled: false, onCancel };
    const key = JSON.stringify(frame.id);
    this.running.set(key, entry);
    const token = frame.params?._meta?.progressToken;
    const steps = program.steps ?? [];
    log({ event: 'program-start', conn: this.name, id: frame.id, call: label });
    let index = 0;
    for (; index < steps.length && !controller.signal.aborted; index++) {
      await this.step(steps[index], index, frame.id, token, controller.signal);
    }
    const closed = this.closed === true;
    if (closed || (controller.signal.aborted && onCancel === 'stop')) {
      log({ event: 'program-end', conn: this.name, id: frame.id, call: label, outcome: closed ? 'closed' : 'cancelled', atStep: index });
      this.running.delete(key);
      this.done?.(frame.id);
      return;
    }
    const end = program.end ?? { kind: 'result' };
    if (end.kind === 'hang' && !entry.cancelled) {
      await sleep(2 ** 31 - 1, controller.signal);
      if (this.closed || onCancel === 'stop') {
        log({ event: 'program-end', conn: this.name, id: frame.id, call: label, outcome: this.closed ? 'closed' : 'cancelled', atStep: index });
        this.running.delete(key);
        this.done?.(frame.id);
        return;
      }
    }
    this.running.delete(key);
    const body =
      end.kind === 'error'
        ? { error: { code: end.code ?? -32603, message: end.message ?? 'scripted error' } }
        : { result: { content: [{ type: 'text', text: 'ok' }] } };
    log({ event: 'program-end', conn: this.name, id: frame.id, call: label, outcome: entry.cancelled ? 'answered-after-cancel' : 'answered' });
    this.out({ jsonrpc: '2.0', id: frame.id, ...body }, frame.id);
    const never = new AbortController().signal;
    for (const [i, step] of (program.after ?? []).entries()) await this.step(step, steps.length + i, frame.id, token, never);
    this.done?.(frame.id);
  }

  async step(step, index, id, token, signal) {
    switch (step.kind) {
      case 'progress': {
        const progressToken = step.token === 'invented' ? `invented-${index}` : token;
        if (progressToken === undefined) return log({ event: 'progress-skipped', conn: this.name, id, index });
        const params = { progressToken, progress: step.progress };
        if (step.total !== undefined) params.total = step.total;
        if (step.message !== undefined) params.message = step.message;
        return this.out({ jsonrpc: '2.0', method: 'notifications/progress', params }, id);
      }
      case 'sleep':
        return void (await sleep(step.ms, signal));
      case 'request': {
        const requestId = step.id === 'call' ? id : typeof step.id === 'number' ? step.id : this.nextId++;
        const answered = new Promise((resolve) => this.waiting.set(JSON.stringify(requestId), resolve));
        this.out({ jsonrpc: '2.0', id: requestId, method: step.method, params: SERVER_REQUEST_PARAMS[step.method] ?? {} }, id);
        if (step.cancelAfterMs !== undefined) {
          const early = await Promise.race([answered.then(() => true), sleep(step.cancelAfterMs, signal).then(() => false)]);
          if (!early) {
            this.out({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'mcp-sim: scripted cancel' } }, id);
            // Wait out the grace period: an answer in it is logged (the judge decides what it means).
            await sleep(step.graceMs ?? 200, new AbortController().signal);
          }
        } else {
          await Promise.race([answered, sleep(step.timeoutMs ?? 2 ** 31 - 1, signal)]);
        }
        return;
      }
      default:
        return log({ event: 'bad-step', conn: this.name, step });
    }
  }

  /** The connection ended (stdin EOF, DELETE, server shutdown): every program stops. */
  close(why) {
    this.closed = true;
    log({ event: why, conn: this.name, running: [...this.running.keys()].map((k) => JSON.parse(k)) });
    for (const entry of this.running.values()) entry.controller.abort();
  }
}

const exit = (code) => {
  log({ event: 'exit' });
  process.exit(code);
};
process.on('SIGTERM', () => exit(0));
process.on('SIGINT', () => exit(0));

log({ event: 'start', transport: http ? 'http' : 'stdio', pid: process.pid, epoch: Date.now() - (performance.now() - started) });
// A fuse, whoever started it: a client that never ends its stdio server does not leave it behind.
if (plan.maxLifeMs) setTimeout(() => { log({ event: 'fuse' }); exit(0); }, plan.maxLifeMs).unref();
if (!http) {
  const connection = new Connection((frame) => process.stdout.write(`${JSON.stringify(frame)}\n`), 'stdio');
  let buffer = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    buffer += chunk;
    let newline;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (!line) continue;
      try {
        connection.receive(JSON.parse(line));
      } catch {
        log({ event: 'bad-line', line });
      }
    }
  });
  process.stdin.on('end', () => {
    connection.close('eof');
    // Let a program that answers anyway (onCancel respond/continue) show it is still writing.
    setTimeout(() => exit(0), 50);
  });
} else {
  serveHttp();
}

/** Stateful Streamable HTTP: a session per initialize, each request's frames on its POST's SSE stream. */
function serveHttp() {
  /** session id → { connection, streams: Map<request id JSON, res>, get?: res } */
  const sessions = new Map();
  let sessions_made = 0;
  const server = createServer((req, res) => {
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    const session = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    log({ event: 'http', method: req.method, session: sessionId ?? null });
    if (req.method === 'GET') {
      if (!session) return void res.writeHead(sessionId ? 404 : 400).end();
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'mcp-session-id': sessionId });
      res.flushHeaders();
      session.get = res;
      res.on('close', () => log({ event: 'get-stream-closed', session: sessionId }));
      return;
    }
    if (req.method === 'DELETE') {
      if (!session) return void res.writeHead(404).end();
      session.connection.close('session-deleted');
      sessions.delete(sessionId);
      session.get?.end();
      return void res.writeHead(200).end();
    }
    if (req.method !== 'POST') return void res.writeHead(405).end();
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      let frames;
      try {
        const parsed = JSON.parse(body);
        frames = Array.isArray(parsed) ? parsed : [parsed];
      } catch {
        log({ event: 'bad-body', body });
        return void res.writeHead(400).end();
      }
      const initialize = frames.find((f) => f?.method === 'initialize' && 'id' in f);
      let target = session;
      if (initialize) {
        const id = `mcp-sim-session-${++sessions_made}`;
        target = newSession(id);
        sessions.set(id, target);
        res.setHeader('mcp-session-id', id);
      } else if (!target) {
        return void res.writeHead(sessionId ? 404 : 400).end();
      }
      const requests = frames.filter((f) => f && 'method' in f && 'id' in f);
      if (requests.length === 0) {
        res.writeHead(202).end();
        for (const f of frames) target.connection.receive(f);
        return;
      }
      if (requests.length === 1 && requests[0].method !== 'tools/call') {
        // One short answer: a JSON body (both forms are allowed; JSON is the one every SDK reads).
        target.pendingJson.set(JSON.stringify(requests[0].id), res);
        for (const f of frames) target.connection.receive(f);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...(initialize ? {} : { 'mcp-session-id': sessionId }) });
      res.flushHeaders();
      const open = new Set(requests.map((r) => JSON.stringify(r.id)));
      for (const key of open) target.streams.set(key, res);
      res.on('close', () => {
        if (!res.writableEnded) log({ event: 'post-stream-closed', session: sessionId, ids: [...open].map((k) => JSON.parse(k)) });
        for (const key of open) if (target.streams.get(key) === res) target.streams.delete(key);
      });
      res.mcpOpen = open;
      for (const f of frames) target.connection.receive(f);
    });
  });

  function newSession(id) {
    const session = { streams: new Map(), pendingJson: new Map(), get: undefined };
    const send = (frame, via) => {
      const key = via === undefined ? undefined : JSON.stringify(via);
      const json = key && session.pendingJson.get(key);
      if (json && 'id' in frame && !('method' in frame)) {
        session.pendingJson.delete(key);
        json.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': id });
        json.end(JSON.stringify(frame));
        return;
      }
      const stream = (key && session.streams.get(key)) ?? session.get;
      if (!stream || stream.writableEnded || stream.destroyed) {
        log({ event: 'out-dropped', session: id, via: via ?? null, frame });
        return;
      }
      stream.write(`event: message\ndata: ${JSON.stringify(frame)}\n\n`);
    };
    session.connection = new Connection(send, id);
    // A call's stream ends once its response and its `after` frames are out.
    session.connection.done = (requestId) => {
      const key = JSON.stringify(requestId);
      const stream = session.streams.get(key);
      if (!stream) return;
      stream.mcpOpen.delete(key);
      session.streams.delete(key);
      if (stream.mcpOpen.size === 0) stream.end();
    };
    return session;
  }

  server.listen(port, '127.0.0.1', () => {
    log({ event: 'listening', port });
    process.stdout.write('listening\n');
  });
}
