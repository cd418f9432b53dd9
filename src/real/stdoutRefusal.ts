import { BadTargetError } from './connection.ts';
import type { JsonValue } from '../util/json.ts';

/** How much of the offending line the refusal quotes. */
const QUOTED_CHARS = 80;

/**
 * Whether a line a stdio server wrote on stdout is a JSON-RPC frame at all: a JSON object (a
 * request, notification or answer, well-formed or not: the rules judge its shape) or an array
 * (a batch). Anything else (a log line, a `print`, a bare JSON string or number) is no frame.
 */
export function isJsonRpcLine(frame: JsonValue, parsed: boolean): boolean {
  return parsed && typeof frame === 'object' && frame !== null;
}

/**
 * The one line that stops a campaign at a stdio server's first stdout line that is not JSON-RPC
 * (exit 2, as any bad target): stdout is the protocol's channel, so whatever the server prints
 * there breaks the client's reading of every frame after it, and a campaign of such runs would
 * only show that noise. It quotes the line (cut) and says where logs go. Python buffers `print`
 * when stdout is a pipe, so the line may come long after the code that printed it.
 */
export function stdoutRefusal(line: string): BadTargetError {
  const quoted = line.length > QUOTED_CHARS ? `${line.slice(0, QUOTED_CHARS)}…` : line;
  return new BadTargetError(
    'not-json-rpc',
    `mcp-sim: the server wrote a line that is not JSON-RPC on stdout: ${JSON.stringify(quoted)} (${line.length} characters); stdout carries only JSON-RPC frames, logs belong on stderr (Python buffers print() on a pipe, so a print may show up late, far from its cause: print(..., file=sys.stderr), or flush=True to find it; console.error in Node).`,
  );
}

/**
 * A refusal an endpoint may raise while a campaign runs (`stdoutRefusal`): the campaign races its
 * runs against `promise`, which rejects with the first error refused; later ones are ignored.
 */
export class Refusal {
  private reject: (error: BadTargetError) => void = () => {};
  /** Rejects with the first error refused; never resolves. Handled here, so that no refusal is unhandled. */
  readonly promise: Promise<never> = new Promise<never>((_, reject) => (this.reject = reject));
  private first: BadTargetError | undefined;

  constructor() {
    this.promise.catch(() => undefined);
  }

  refuse(error: BadTargetError): void {
    if (this.first) return;
    this.first = error;
    this.reject(error);
  }

  /** The error refused, if any. */
  get error(): BadTargetError | undefined {
    return this.first;
  }

  /** `work`, or this refusal's error as soon as it comes (what `work` does later is dropped). */
  race<T>(work: Promise<T>): Promise<T> {
    work.catch(() => undefined);
    return Promise.race([work, this.promise]);
  }
}
