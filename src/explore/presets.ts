import type { HandlerProgram, Scenario } from '../sim/index.ts';

/** A named small scenario whose every schedule `explore` tries: one of the seed races. */
export interface ExplorePreset {
  readonly name: string;
  /** One line: the race it holds. */
  readonly description: string;
  readonly scenario: Scenario;
  /**
   * Timers later than this (virtual ms) never fire: the scope leaves the SDK's default 60 s
   * timeouts out where the race is elsewhere. @default DEFAULT_MAX_VIRTUAL_MS (every timer fires)
   */
  readonly virtualMsMax?: number;
}

const answers: HandlerProgram = { steps: [], end: { kind: 'result' }, onAbort: 'honour' };
const reportsOnce: HandlerProgram = { steps: [{ kind: 'progress', progress: 1, total: 2 }], end: { kind: 'result' }, onAbort: 'honour' };
const reportsTwice: HandlerProgram = {
  steps: [
    { kind: 'progress', progress: 1, total: 2 },
    { kind: 'progress', progress: 2, total: 2 },
  ],
  end: { kind: 'result' },
  onAbort: 'honour',
};

/**
 * The presets, in the order `explore --list` prints them. Each is kept small enough that its
 * unreduced enumeration completes in seconds, so the soundness test runs on every CI run.
 */
export const explorePresets: readonly ExplorePreset[] = [
  {
    name: 'request-cancel-response',
    description: 'a tools/call whose caller aborts it while the response may be on its way',
    scenario: {
      profile: 'memory',
      handlers: { tool: answers },
      actions: [
        { kind: 'call', call: 'c1', method: 'tools/call', handler: 'tool', options: { signal: 'sig' } },
        { kind: 'abort', signal: 'sig' },
      ],
    },
  },
  {
    name: 'progress-response-timeout',
    description: 'progress and the response race the caller’s 100 ms timeout',
    scenario: {
      profile: 'memory',
      handlers: { tool: reportsOnce },
      actions: [{ kind: 'call', call: 'c1', method: 'tools/call', handler: 'tool', options: { onprogress: true, timeoutMs: 100 } }],
    },
  },
  {
    name: 'reset-on-progress-max-total',
    description: 'resetTimeoutOnProgress with a maxTotalTimeout: progress resets the timeout, the total cap must still hold',
    scenario: {
      profile: 'memory',
      handlers: { tool: reportsTwice },
      actions: [
        {
          kind: 'call',
          call: 'c1',
          method: 'tools/call',
          handler: 'tool',
          options: { onprogress: true, timeoutMs: 100, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 150 },
        },
      ],
    },
  },
  {
    name: 'close-reconnect-in-flight',
    description: 'the client closes with a request in flight and reconnects while the server may still answer it',
    scenario: {
      profile: 'memory',
      handlers: { tool: answers },
      actions: [
        { kind: 'call', call: 'c1', method: 'tools/call', handler: 'tool', options: {} },
        { kind: 'close', side: 'client' },
        { kind: 'reconnect' },
      ],
    },
  },
  {
    name: 'server-request-cancel',
    description: 'a server→client sampling request that the server aborts while the client answers',
    scenario: {
      profile: 'memory',
      handlers: { sample: answers },
      actions: [
        { kind: 'call', call: 's1', method: 'sampling/createMessage', handler: 'sample', options: { signal: 'sig' } },
        { kind: 'abort', signal: 'sig' },
      ],
    },
  },
  {
    name: 'http-request-cancel-response',
    description: 'request × cancel × response over Streamable HTTP (stateful, JSON responses; timers after 1 s out of scope)',
    virtualMsMax: 1_000,
    scenario: {
      profile: 'http',
      http: { stateful: true, response: 'json', eventStore: false },
      handlers: { tool: answers },
      actions: [
        { kind: 'call', call: 'c1', method: 'tools/call', handler: 'tool', options: { signal: 'sig' } },
        { kind: 'abort', signal: 'sig' },
      ],
    },
  },
  {
    name: 'two-http-clients-cancel',
    description: 'two clients over Streamable HTTP: one cancels its call while the other’s session comes up (timers after 1 s out of scope)',
    virtualMsMax: 1_000,
    scenario: {
      profile: 'http',
      http: { stateful: true, response: 'json', eventStore: false, clients: 2 },
      handlers: { tool: answers },
      actions: [
        { kind: 'call', call: 'c1', method: 'tools/call', handler: 'tool', options: { signal: 'sig' }, client: 0 },
        { kind: 'abort', signal: 'sig' },
      ],
    },
  },
];

/** The preset called `name`, or `undefined`. */
export const explorePreset = (name: string): ExplorePreset | undefined => explorePresets.find((p) => p.name === name);
