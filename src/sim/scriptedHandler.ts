import type { HandlerProgram, HandlerStep, RequestMethod, Side } from './scenario.ts';
import type { TraceEventBody, WireId } from './trace.ts';

/** A handler step waiting for the scheduler: the world lists open gates as enabled actions. */
export interface Gate {
  readonly seq: number;
  readonly side: Side;
  /** The connection the request came on (the explorer's footprint tells clients apart by it). */
  readonly conn: number;
  readonly id: WireId;
  readonly index: number;
  readonly step: HandlerStep;
  open(): void;
}

/** What a scripted handler needs from the world. */
export interface HandlerHost {
  /** Registers a gate and resolves when the scheduler opens it. `withdraw` removes it unopened. */
  gate(side: Side, conn: number, id: WireId, index: number, step: HandlerStep): { opened: Promise<void>; withdraw(): void };
  record(event: TraceEventBody): void;
  /** What the handler throws so that the SDK answers with error `code` (the SDK's own error class). */
  error(code: number, message: string): Error;
}

/** The request-scoped tools the SDK hands a handler (`extra` in 1.x), reduced to what scripts use. */
export interface HandlerExtra {
  readonly signal: AbortSignal;
  readonly progressToken: string | number | undefined;
  sendProgress(token: string | number, progress: number, total?: number, message?: string): Promise<void>;
  callPeer(method: RequestMethod, handler: string | undefined, timeoutMs: number | undefined): Promise<unknown>;
}

class AbortedError extends Error {
  constructor(readonly reason: unknown) {
    super(`aborted: ${String(reason)}`);
  }
}

/**
 * Runs one scripted handler: each step waits for the scheduler, then acts. The abort policy
 * decides what the handler's `AbortSignal` does to it. Returns the method's result or throws
 * the scripted error, exactly as a real handler would hand them to the SDK.
 */
export async function runScriptedHandler(
  host: HandlerHost,
  where: { side: Side; conn: number; id: WireId; method: RequestMethod },
  program: HandlerProgram,
  extra: HandlerExtra,
  result: () => Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const { side, conn, id } = where;
  const listens = program.onAbort !== 'ignore';
  // A cancel delivered in the same burst as its request aborts the signal before the handler runs.
  if (extra.signal.aborted) host.record({ kind: 'handler-abort', side, conn, id, reason: String(extra.signal.reason) });
  else {
    extra.signal.addEventListener(
      'abort',
      () => host.record({ kind: 'handler-abort', side, conn, id, reason: String(extra.signal.reason) }),
      { once: true },
    );
  }

  /** Races `work` with the abort, unless the handler ignores aborts. */
  const abortable = <T>(work: Promise<T>, onAbort?: () => void): Promise<T> => {
    if (!listens) return work;
    if (extra.signal.aborted) {
      onAbort?.();
      return Promise.reject(new AbortedError(extra.signal.reason));
    }
    return new Promise<T>((resolve, reject) => {
      const abort = () => {
        onAbort?.();
        reject(new AbortedError(extra.signal.reason));
      };
      extra.signal.addEventListener('abort', abort, { once: true });
      work.then(
        (v) => {
          extra.signal.removeEventListener('abort', abort);
          resolve(v);
        },
        (e: unknown) => {
          extra.signal.removeEventListener('abort', abort);
          reject(e);
        },
      );
    });
  };

  if (program.faults?.unhandledRejection) void Promise.reject(new Error(`scripted unhandled rejection in handler ${id}`));
  if (program.faults?.throwInTimer) {
    setTimeout(function throwingTimer() {
      throw new Error(`scripted exception in a timer of handler ${id}`);
    }, 0);
  }
  if (program.faults?.leakInterval) setInterval(function leakedInterval() {}, 1000);

  const end = (outcome: 'result' | 'error' | 'aborted' | 'swallowed') =>
    host.record({ kind: 'handler-end', side, conn, id, outcome });

  try {
    for (const [index, step] of program.steps.entries()) {
      const gate = host.gate(side, conn, id, index, step);
      await abortable(gate.opened, gate.withdraw);
      host.record({ kind: 'handler-step', side, conn, id, index, op: step });
      await runStep(step, index, program, extra, abortable);
    }
    switch (program.end.kind) {
      case 'result':
        end('result');
        return result();
      case 'error':
        end('error');
        throw host.error(program.end.code, program.end.message ?? 'scripted error');
      case 'hang':
        await abortable(new Promise<never>(() => {}));
        throw new Error('unreachable: a hanging handler resumed');
    }
  } catch (error) {
    if (!(error instanceof AbortedError)) {
      // A step failed on its own (a progress the transport could not send): the handler ends in
      // that error, and the trace must say so, or the model takes it for a handler still running.
      end('error');
      throw error;
    }
    if (program.onAbort === 'swallow') {
      end('swallowed');
      return result();
    }
    end('aborted');
    throw error;
  }
}

async function runStep(
  step: HandlerStep,
  index: number,
  program: HandlerProgram,
  extra: HandlerExtra,
  abortable: <T>(work: Promise<T>, onAbort?: () => void) => Promise<T>,
): Promise<void> {
  switch (step.kind) {
    case 'progress': {
      const token =
        program.faults?.progressToken === 'invent' ? `invented-${index}` : extra.progressToken;
      // A correct handler only reports progress for a token the requester asked for.
      if (token !== undefined) await extra.sendProgress(token, step.progress, step.total, step.message);
      return;
    }
    case 'sleep': {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const slept = new Promise<void>((resolve) => (timer = setTimeout(function handlerSleep() { resolve(); }, step.ms)));
      // Honouring an abort includes clearing the handler's own timer.
      await abortable(slept, () => clearTimeout(timer));
      return;
    }
    case 'call':
      try {
        await abortable(extra.callPeer(step.method, step.handler, step.timeoutMs));
      } catch (error) {
        // A failed downstream call is the handler's business; only an abort stops the script.
        if (error instanceof AbortedError) throw error;
      }
      return;
  }
}
