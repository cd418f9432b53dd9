/**
 * The two halves of a client scenario (testbeds/CLIENT.md): what the caller does (the client
 * script, run by an SDK's test-bed client) and what the server does (the plan, run by mcp-sim's
 * scripted server). Both are plain JSON, written to files, because two programs in other
 * languages read them. They live beside the real clock's other plans (`plan.ts`): the client
 * target runs them, and the workload generates them.
 */

/** A step of the scripted server's program for one call. */
export type ServerStep =
  | { readonly kind: 'progress'; readonly progress: number; readonly total?: number; readonly message?: string; readonly token?: 'invented' }
  | { readonly kind: 'sleep'; readonly ms: number }
  | {
      readonly kind: 'request';
      readonly method: 'sampling/createMessage' | 'elicitation/create' | 'roots/list';
      /** Cancel the request this long after sending it (unless answered first), then wait `graceMs`. */
      readonly cancelAfterMs?: number;
      readonly graceMs?: number;
      readonly timeoutMs?: number;
      /** The request's id: by default the server's own counter (from 100); 0, or the id of the call it runs in. */
      readonly id?: number | 'call';
    };

/** How the scripted server ends a call. */
export type ServerEnd = { readonly kind: 'result' } | { readonly kind: 'error'; readonly code: number; readonly message?: string } | { readonly kind: 'hang' };

/** The scripted server's program for one call label. */
export interface ServerCallPlan {
  readonly steps: readonly ServerStep[];
  readonly end: ServerEnd;
  /** What a `notifications/cancelled` does: `stop` (a correct server), `respond` (answer anyway), `continue` (ignore it). */
  readonly onCancel: 'stop' | 'respond' | 'continue';
  /** Frames sent after the response (late progress, with the call's token). */
  readonly after?: readonly ServerStep[];
}

/** The scripted server's plan file. */
export interface ServerPlan {
  readonly calls: Readonly<Record<string, ServerCallPlan>>;
  /** Where it writes its wire log (filled in by the runner). */
  readonly log?: string;
}

/** A caller action of the client script. */
export type ClientAction =
  | {
      readonly kind: 'call';
      readonly call: string;
      readonly atMs: number;
      readonly progress?: boolean;
      readonly timeoutMs?: number;
      readonly resetTimeoutOnProgress?: boolean;
      readonly maxTotalTimeoutMs?: number;
    }
  | { readonly kind: 'abort'; readonly call: string; readonly atMs: number }
  | { readonly kind: 'close'; readonly atMs: number };

/** How the client's handlers answer the server's requests. */
export interface ServerRequestPolicy {
  readonly delayMs: number;
  readonly hang: boolean;
}

/** The client script file, less `server` (the runner adds how to reach the scripted server). */
export interface ClientScriptBody {
  readonly actions: readonly ClientAction[];
  readonly serverRequests: ServerRequestPolicy;
  readonly deadlineMs: number;
}

/**
 * Both halves of one client case, as plain JSON: a fixed scenario's (src/targets/client/) or a
 * generated one's (src/workload/clientCaseArbitrary.ts), as a replay file stores it.
 */
export interface ClientProgram {
  readonly plan: ServerPlan;
  readonly script: ClientScriptBody;
}

/** How the test-bed client reaches the scripted server. */
export type ClientServerSpec = { readonly stdio: readonly string[] } | { readonly url: string };

export interface ClientScript extends ClientScriptBody {
  readonly server: ClientServerSpec;
}

/** A call of the client script. */
export type CallAction = Extract<ClientAction, { kind: 'call' }>;

/** A caller option a test-bed client may have (testbed.json's `client.options`): a call's option it lacks is ignored. */
export type CallerOption = 'resetTimeoutOnProgress' | 'maxTotalTimeout';

/** The call actions of a script, by label. */
export function callsOf(script: ClientScriptBody): ReadonlyMap<string, CallAction> {
  const calls = new Map<string, CallAction>();
  for (const action of script.actions) if (action.kind === 'call') calls.set(action.call, action);
  return calls;
}
