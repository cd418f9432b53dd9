/**
 * What the oracle must know about one SDK release to judge its traces: defaults, the texts and
 * codes of its own errors, the labels of its timers and the names of its private correlation
 * maps. Plain data, provided by each release's adapter (`SdkAdapter.facts`), so the model holds
 * no knowledge of any particular release.
 */

/** The roles of the correlation maps of one `Protocol` instance (requester and receiver side). */
export type CorrelationMapRole =
  | 'responseHandlers'
  | 'progressHandlers'
  | 'timeouts'
  | 'handlerAbortControllers'
  | 'requestResolvers'
  | 'taskProgressTokens';

/** Every role, in the order reports list them. */
export const correlationMapRoles: readonly CorrelationMapRole[] = [
  'responseHandlers',
  'progressHandlers',
  'timeouts',
  'handlerAbortControllers',
  'requestResolvers',
  'taskProgressTokens',
];

/**
 * The roles of the Streamable HTTP server transport's own correlation maps: which request went
 * out on which stream, the responses waiting for their batch, the open streams by id.
 */
export type TransportMapRole = 'requestToStream' | 'requestResponses' | 'streams';

/** Every transport map role, in the order reports list them. */
export const transportMapRoles: readonly TransportMapRole[] = ['requestToStream', 'requestResponses', 'streams'];

export interface SdkFacts {
  /** Timeout a request gets when its caller sets none. */
  readonly defaultRequestTimeoutMs: number;
  /** Code of the SDK's own request-timeout rejection (`SdkAdapter.errorCode`): JSON-RPC -32001 in 1.x, `REQUEST_TIMEOUT` in 2.x. */
  readonly requestTimeoutCode: number | string;
  /** Patterns of the messages the SDK rejects calls with. */
  readonly errorText: {
    /** A request timed out (`timeout`, or the reset deadline after progress). */
    readonly requestTimeout: RegExp;
    /** `maxTotalTimeout` was exceeded. */
    readonly maxTotalTimeout: RegExp;
    /** The connection is gone: the call failed because nothing can be sent or received. */
    readonly connectionGone: RegExp;
  };
  /** Function names of the SDK's own timer callbacks, as the virtual clock reports them. */
  readonly timerLabels: {
    /** The per-request timeout timer. */
    readonly requestTimeout: string;
  };
  /** The private field behind each correlation map role (for messages and the probe). */
  readonly correlationMaps: Readonly<Record<CorrelationMapRole, string>>;
  /**
   * The private field behind each map of the Streamable HTTP server transport (for the probe and
   * `leak.correlation-maps`); a release without that transport, or without a field, is skipped.
   */
  readonly httpServerTransportMaps: Readonly<Record<TransportMapRole, string>>;
}
