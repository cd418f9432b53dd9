import type { CallerOption, ClientScriptBody, ServerPlan } from '../../real/clientScript.ts';

/**
 * The fixed client scenarios: each asks one question of an SDK's client (testbeds/CLIENT.md),
 * with a scripted server that does one thing a client must cope with. Real time, so every
 * duration leaves the SDK at least 100 ms of slack and a finding is given with its rate.
 */
export interface ClientScenario {
  readonly name: string;
  /** The question it asks, as the report prints it. */
  readonly question: string;
  readonly plan: ServerPlan;
  readonly script: ClientScriptBody;
  /**
   * The caller option this scenario asks about: a client without it runs the call with its
   * timeout alone (the option is not given), and is judged as it ran.
   */
  readonly option?: CallerOption;
}

const answerAtOnce = { delayMs: 0, hang: false } as const;
const hangForever = { kind: 'hang' } as const;

/** The server cancels its own request `method` 200 ms after sending it; the client's handler hangs until told. */
const serverCancel = (name: string, question: string, method: 'sampling/createMessage' | 'elicitation/create', id?: number | 'call'): ClientScenario => ({
  name,
  question,
  plan: { calls: { c1: { steps: [{ kind: 'request', method, ...(id !== undefined && { id }), cancelAfterMs: 200, graceMs: 400 }], end: { kind: 'result' }, onCancel: 'stop' } } },
  script: { actions: [{ kind: 'call', call: 'c1', atMs: 0 }], serverRequests: { delayMs: 0, hang: true }, deadlineMs: 3000 },
});

export const CLIENT_SCENARIOS: readonly ClientScenario[] = [
  {
    name: 'result',
    question: 'a call with progress that ends: are its progress and result delivered?',
    plan: {
      calls: {
        c1: {
          steps: [{ kind: 'progress', progress: 1, total: 2 }, { kind: 'sleep', ms: 20 }, { kind: 'progress', progress: 2, total: 2 }],
          end: { kind: 'result' },
          onCancel: 'stop',
        },
      },
    },
    script: { actions: [{ kind: 'call', call: 'c1', atMs: 0, progress: true }], serverRequests: answerAtOnce, deadlineMs: 3000 },
  },
  {
    name: 'error',
    question: 'a call the server answers with a JSON-RPC error: is it an error with its code?',
    plan: { calls: { c1: { steps: [], end: { kind: 'error', code: -32042, message: 'scripted error' }, onCancel: 'stop' } } },
    script: { actions: [{ kind: 'call', call: 'c1', atMs: 0 }], serverRequests: answerAtOnce, deadlineMs: 3000 },
  },
  {
    name: 'abort',
    question: 'the caller aborts a running call: is notifications/cancelled sent, and does the call settle?',
    plan: { calls: { c1: { steps: [{ kind: 'progress', progress: 1 }], end: hangForever, onCancel: 'stop' } } },
    script: {
      actions: [
        { kind: 'call', call: 'c1', atMs: 0, progress: true },
        { kind: 'abort', call: 'c1', atMs: 200 },
      ],
      serverRequests: answerAtOnce,
      deadlineMs: 3000,
    },
  },
  {
    name: 'abort-then-close',
    question: 'the caller aborts a call and closes the client at once: does the cancel still go out?',
    plan: { calls: { c1: { steps: [], end: hangForever, onCancel: 'stop' } } },
    script: {
      actions: [
        { kind: 'call', call: 'c1', atMs: 0 },
        { kind: 'abort', call: 'c1', atMs: 200 },
        { kind: 'close', atMs: 200 },
      ],
      serverRequests: answerAtOnce,
      deadlineMs: 3000,
    },
  },
  {
    name: 'timeout',
    question: 'a call outlives its timeout: does it time out, and is notifications/cancelled sent?',
    plan: { calls: { c1: { steps: [], end: hangForever, onCancel: 'stop' } } },
    script: { actions: [{ kind: 'call', call: 'c1', atMs: 0, timeoutMs: 300 }], serverRequests: answerAtOnce, deadlineMs: 3000 },
  },
  {
    name: 'late-response',
    question: 'the server answers a call after the caller aborted it: is the late answer dropped, and does the next call work?',
    plan: {
      calls: {
        c1: { steps: [{ kind: 'sleep', ms: 600 }], end: { kind: 'result' }, onCancel: 'continue' },
        c2: { steps: [], end: { kind: 'result' }, onCancel: 'stop' },
      },
    },
    script: {
      actions: [
        { kind: 'call', call: 'c1', atMs: 0 },
        { kind: 'abort', call: 'c1', atMs: 200 },
        { kind: 'call', call: 'c2', atMs: 900 },
      ],
      serverRequests: answerAtOnce,
      deadlineMs: 3000,
    },
  },
  {
    name: 'timeout-late-response',
    question: 'the server answers a call after it timed out: is the late answer dropped?',
    plan: {
      calls: {
        c1: { steps: [{ kind: 'sleep', ms: 700 }], end: { kind: 'result' }, onCancel: 'continue' },
        c2: { steps: [], end: { kind: 'result' }, onCancel: 'stop' },
      },
    },
    script: {
      actions: [
        { kind: 'call', call: 'c1', atMs: 0, timeoutMs: 300 },
        { kind: 'call', call: 'c2', atMs: 1000 },
      ],
      serverRequests: answerAtOnce,
      deadlineMs: 3000,
    },
  },
  {
    name: 'late-progress',
    question: 'progress after the response, and progress with a token the client never chose: are they dropped?',
    plan: {
      calls: {
        c1: {
          steps: [{ kind: 'progress', progress: 0.5, token: 'invented' }, { kind: 'progress', progress: 1 }],
          end: { kind: 'result' },
          onCancel: 'stop',
          after: [{ kind: 'progress', progress: 2 }],
        },
        c2: { steps: [], end: { kind: 'result' }, onCancel: 'stop' },
      },
    },
    script: {
      actions: [
        { kind: 'call', call: 'c1', atMs: 0, progress: true },
        { kind: 'call', call: 'c2', atMs: 500 },
      ],
      serverRequests: answerAtOnce,
      deadlineMs: 3000,
    },
  },
  serverCancel('server-cancel', 'the server cancels its own sampling request: is the client handler told, and is the request left unanswered?', 'sampling/createMessage'),

  serverCancel('server-cancel-elicitation', 'the server cancels its own elicitation request: is the client handler told, and is the request left unanswered?', 'elicitation/create'),

  serverCancel('server-cancel-id-0', 'the same, with the server request numbered 0: is a cancel of request id 0 honoured?', 'sampling/createMessage', 0),

  serverCancel('server-cancel-same-id', "the server's request shares its id with the client's call, then is cancelled: is only the server's request cancelled?", 'sampling/createMessage', 'call'),

  {
    name: 'sampling',
    question: 'the server asks the client for sampling, elicitation and roots inside a call: are they answered?',
    plan: {
      calls: {
        c1: {
          steps: [
            { kind: 'request', method: 'sampling/createMessage', timeoutMs: 1000 },
            { kind: 'request', method: 'elicitation/create', timeoutMs: 1000 },
            { kind: 'request', method: 'roots/list', timeoutMs: 1000 },
          ],
          end: { kind: 'result' },
          onCancel: 'stop',
        },
      },
    },
    script: { actions: [{ kind: 'call', call: 'c1', atMs: 0 }], serverRequests: answerAtOnce, deadlineMs: 4000 },
  },
  {
    name: 'close',
    question: 'the client closes with two calls in flight: does every call settle, and does the client end?',
    plan: {
      calls: {
        c1: { steps: [], end: hangForever, onCancel: 'stop' },
        c2: { steps: [], end: hangForever, onCancel: 'stop' },
      },
    },
    script: {
      actions: [
        { kind: 'call', call: 'c1', atMs: 0, progress: true },
        { kind: 'call', call: 'c2', atMs: 0, progress: true },
        { kind: 'close', atMs: 300 },
      ],
      serverRequests: answerAtOnce,
      deadlineMs: 3000,
    },
  },
  {
    name: 'reset-on-progress',
    question: 'progress every 150 ms on a call with a 400 ms timeout reset on progress: does it run to its result?',
    plan: {
      calls: {
        c1: {
          steps: Array.from({ length: 6 }, (_, i) => [{ kind: 'sleep', ms: 150 } as const, { kind: 'progress', progress: i + 1 } as const]).flat(),
          end: { kind: 'result' },
          onCancel: 'stop',
        },
      },
    },
    script: {
      actions: [{ kind: 'call', call: 'c1', atMs: 0, progress: true, timeoutMs: 400, resetTimeoutOnProgress: true }],
      serverRequests: answerAtOnce,
      deadlineMs: 4000,
    },
    option: 'resetTimeoutOnProgress',
  },
  {
    name: 'max-total',
    question: 'the same progress with a 600 ms maximum total: does it time out at the maximum despite the progress?',
    plan: {
      calls: {
        c1: {
          steps: Array.from({ length: 10 }, (_, i) => [{ kind: 'sleep', ms: 150 } as const, { kind: 'progress', progress: i + 1 } as const]).flat(),
          end: { kind: 'result' },
          onCancel: 'stop',
        },
      },
    },
    script: {
      actions: [{ kind: 'call', call: 'c1', atMs: 0, progress: true, timeoutMs: 400, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 600 }],
      serverRequests: answerAtOnce,
      deadlineMs: 4000,
    },
    option: 'maxTotalTimeout',
  },
];

/** `--scenario all`: every fixed scenario. */
export const ALL_SCENARIOS = 'all';

export function clientScenario(name: string): ClientScenario | undefined {
  return CLIENT_SCENARIOS.find((s) => s.name === name);
}
