// The scripted handler program of mcp-sim's TypeScript SDK test bed (testbeds/PROGRAM.md), shared
// by its two interpreters: server.mjs's low layer (the SDK's low-level `Server`) and high.mjs's
// high layer (`McpServer.registerTool`). Each gives the program the request's scope as its layer
// hands it over (sdk.mjs `RequestScope`); the steps, abort policies and side channel are one.

/** One side-channel line: the oracle reads these to judge the handler, not only the wire. */
const writeEvent = (body) => process.stderr.write(`mcp-sim-event ${JSON.stringify(body)}\n`);

export const RESULT = { content: [{ type: 'text', text: 'ok' }] };
/** The params of each request a `call` step sends to the client (PROGRAM.md). */
const DOWNSTREAM = {
  'sampling/createMessage': { messages: [{ role: 'user', content: { type: 'text', text: 'run' } }], maxTokens: 16 },
  'elicitation/create': { mode: 'form', message: 'run', requestedSchema: { type: 'object', properties: {} } },
  'roots/list': {},
};

class Aborted extends Error {}

/** -32602: the JSON-RPC code of a tool called with arguments that are not a program. */
export const INVALID_PARAMS = -32602;

/**
 * Runs the program of one `tools/call run {program, call}` with the SDK's request scope: the
 * request's own progress token, its own senders to the client, its own cancellation signal. An
 * `error` end throws the SDK's error; what the layer answers with it is the layer's business.
 * @param {Awaited<ReturnType<typeof import('./sdk.mjs').loadSdk>>} sdk
 * @param {any} args the tool's arguments
 * @param {import('./sdk.mjs').RequestScope} scope
 */
export async function runProgram(sdk, args, { signal, progressToken: token, notify, send }) {
  const program = args?.program;
  if (typeof program !== 'object' || program === null || !Array.isArray(program.steps)) {
    throw sdk.error(INVALID_PARAMS, 'tool run: arguments.program (a HandlerProgram) expected');
  }
  const call = args?.call;
  // Named by `call` alone (as go-sdk's bed must), so every bed's side channel reads the same.
  const event = (body) => writeEvent({ ...body, ...(call !== undefined && { call }) });
  const listens = program.onAbort !== 'ignore';
  event({ event: 'handler-start' });
  const observed = () => event({ event: 'abort-observed' });
  if (signal.aborted) observed();
  else signal.addEventListener('abort', observed, { once: true });

  /** Races `work` with the abort unless the program ignores aborts (`ignore`: the work just goes on). */
  const abortable = (work, onAbort) => {
    if (!listens) return work;
    if (signal.aborted) {
      onAbort?.();
      return Promise.reject(new Aborted());
    }
    return new Promise((resolve, reject) => {
      const abort = () => {
        onAbort?.();
        reject(new Aborted());
      };
      signal.addEventListener('abort', abort, { once: true });
      work.then(
        (v) => (signal.removeEventListener('abort', abort), resolve(v)),
        (e) => (signal.removeEventListener('abort', abort), reject(e)),
      );
    });
  };
  const end = (outcome) => event({ event: 'handler-end', outcome });

  try {
    for (const [index, step] of program.steps.entries()) {
      if (listens && signal.aborted) throw new Aborted();
      event({ event: 'step', index });
      if (step.kind === 'progress') {
        const t = program.faults?.progressToken === 'invent' ? `invented-${index}` : token;
        if (t !== undefined) {
          await notify({
            method: 'notifications/progress',
            params: { progressToken: t, progress: step.progress, ...(step.total !== undefined && { total: step.total }), ...(step.message !== undefined && { message: step.message }) },
          });
        }
      } else if (step.kind === 'sleep') {
        let timer;
        await abortable(new Promise((resolve) => (timer = setTimeout(resolve, step.ms))), () => clearTimeout(timer));
      } else if (step.kind === 'call') {
        try {
          await abortable(
            send({ method: step.method, params: DOWNSTREAM[step.method] ?? {} }, {
              ...(listens && { signal }),
              ...(step.timeoutMs !== undefined && { timeout: step.timeoutMs }),
            }),
          );
        } catch (error) {
          // A failed downstream call is the handler's business; only an abort stops the script.
          if (error instanceof Aborted) throw error;
        }
      }
    }
    if (program.end.kind === 'result') {
      end('result');
      return RESULT;
    }
    if (program.end.kind === 'error') {
      end('error');
      throw sdk.error(program.end.code, program.end.message ?? 'scripted error');
    }
    await abortable(new Promise(() => {}));
  } catch (error) {
    if (!(error instanceof Aborted)) {
      if (!sdk.isError(error)) end('error');
      throw error;
    }
    if (program.onAbort === 'swallow') {
      end('swallowed');
      return RESULT;
    }
    end('aborted');
    throw error;
  }
}

