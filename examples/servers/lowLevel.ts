/**
 * A correct server on the low-level `Server`: a default-export factory taking the context hosting
 * platforms pass (`{ config }`), one tool with a hand-written JSON Schema, progress and cancel
 * handled by hand.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    // A signal that aborted already fires no more events: check it first.
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });

export default function createServer({ config }: { config: { stepMs?: number } }): Server {
  const stepMs = config.stepMs ?? 100;
  const server = new Server({ name: 'countdown', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      {
        name: 'countdown',
        description: 'Counts down from `from`, one step at a time, with progress.',
        inputSchema: { type: 'object', properties: { from: { type: 'integer', minimum: 1, maximum: 5 } }, required: ['from'] },
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const from = Number(request.params.arguments?.from ?? 1);
    const token = request.params._meta?.progressToken;
    for (let done = 1; done <= from; done++) {
      // Sleeping on the signal: a cancel ends the wait and the handler at once.
      await sleep(stepMs, extra.signal);
      if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: done, total: from } });
    }
    return { content: [{ type: 'text', text: 'lift-off' }] };
  });
  return server;
}
