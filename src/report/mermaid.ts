import { summarizeFrame, type TraceEvent } from '../sim/index.ts';

const who = { client: 'Client', server: 'Server' } as const;

/**
 * A Mermaid `sequenceDiagram` of a trace: deliveries as arrows (a frame is drawn when it
 * arrives, so crossings show as a send note before the arrow), caller actions, timers and
 * handler events as notes. Paste it into any Markdown viewer that renders Mermaid.
 */
export function toMermaid(trace: readonly TraceEvent[], options: { skipHandshake?: boolean } = {}): string {
  const lines = ['sequenceDiagram', '  participant Client', '  participant Server'];
  let ready = !options.skipHandshake;
  for (const e of trace) {
    if (e.kind === 'ready') {
      ready = true;
      continue;
    }
    if (!ready) continue;
    const at = `t=${e.t}`;
    switch (e.kind) {
      case 'deliver':
        lines.push(`  ${e.to === 'server' ? 'Client->>Server' : 'Server->>Client'}: ${escape(summarizeFrame(e.frame))}${e.burst > 1 ? ' (burst)' : ''}`);
        break;
      case 'drop':
        lines.push(`  Note over ${who[e.to]}: lost in flight: ${escape(summarizeFrame(e.frame))}`);
        break;
      case 'call-start':
        lines.push(`  Note over ${who[e.from]}: ${at} call ${e.call} ${e.method}`);
        break;
      case 'call-settle':
        lines.push(`  Note over ${who[e.from]}: call ${e.call} ${e.outcome}${e.code !== undefined ? ` (${e.code})` : ''}`);
        break;
      case 'abort-signal':
        lines.push(`  Note over Client,Server: ${at} caller aborts signal ${e.signal}`);
        break;
      case 'timer':
        lines.push(`  Note over Client,Server: ${at} timer ${e.label}`);
        break;
      case 'handler-abort':
        lines.push(`  Note over ${who[e.side]}: handler id=${e.id} aborted`);
        break;
      case 'handler-end':
        lines.push(`  Note over ${who[e.side]}: handler id=${e.id} ends: ${e.outcome}`);
        break;
      case 'onerror':
        lines.push(`  Note over ${who[e.side]}: onerror: ${escape(e.message).slice(0, 80)}`);
        break;
      case 'close':
        lines.push(`  Note over ${who[e.side]}: closed`);
        break;
      // HTTP exchanges: the ends of a POST or GET are what the http.* invariants are about.
      case 'http-request':
        if (e.at === 'server') lines.push(`  Note over Server: ${e.method} #${e.exchange} arrives`);
        break;
      case 'http-response':
        if (e.at === 'client') lines.push(`  Note over Client: #${e.exchange} response ${e.status}${e.contentType ? ` ${e.contentType}` : ''}`);
        break;
      case 'sse-end':
        if (e.at === 'client') lines.push(`  Note over Client: #${e.exchange} stream ends`);
        break;
      case 'http-disconnect':
        lines.push(`  Note over ${who[e.at]}: #${e.exchange} disconnected`);
        break;
      case 'end':
        lines.push(`  Note over Client,Server: ${at} quiescent (${e.outcome})`);
        break;
      case 'escape':
        lines.push(`  Note over Client,Server: ESCAPE ${escape(e.error).slice(0, 80)}`);
        break;
      default:
        break;
    }
  }
  return lines.join('\n');
}

/** Mermaid ends a message at `;` (and reads `#…;` as an entity): keep semicolons out. */
function escape(text: string): string {
  return text.replace(/;/g, ',');
}
