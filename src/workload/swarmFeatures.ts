import fc from 'fast-check';

/**
 * The features one generated case may use: swarm testing. Each case first draws which are on,
 * then only those show up in its scenario, so some cases pile many calls onto few features and
 * meet their rare combinations (a progress at exactly the maximum total timeout, a resumed SSE
 * stream) far more often than a case that spreads its few actions over every feature.
 */
export interface SwarmFeatures {
  /** Calls set `timeoutMs`. */
  readonly timeout: OptionLevel;
  /** Calls set `maxTotalTimeoutMs`. */
  readonly maxTotal: OptionLevel;
  /** Calls set `resetTimeoutOnProgress: true`. */
  readonly resetOnProgress: OptionLevel;
  /** Calls pass `onprogress`. */
  readonly onprogress: OptionLevel;
  /** Calls carry a caller's signal. */
  readonly signalOption: OptionLevel;
  /** Handlers may report progress. */
  readonly progressSteps: boolean;
  /** Handlers may sleep. */
  readonly sleeps: boolean;
  /** Tool handlers may call back into the client (sampling, roots). */
  readonly nestedCalls: boolean;
  /** Handlers may hang. */
  readonly hangs: boolean;
  /** Handlers may end with an error. */
  readonly errors: boolean;
  /** Handlers may ignore or swallow their abort (otherwise they honour it). */
  readonly abortPolicies: boolean;
  /** Callers abort signals. */
  readonly aborts: boolean;
  /** Server-initiated top-level requests (sampling, elicitation, roots). */
  readonly serverRequests: boolean;
  /** Connection closes. */
  readonly closes: boolean;
  /** Reconnects after a close. */
  readonly reconnects: boolean;
  /** http: broken SSE streams (`http-drop`), a network fault. */
  readonly drops: boolean;
  /** http stateful: several clients, one session each. */
  readonly severalClients: boolean;
  /** http stateful: an event store (priming events, resumption with Last-Event-ID). */
  readonly eventStore: boolean;
}

/**
 * How often calls use an option: `off` never, `some` as a plain case does (by a coin per call),
 * `all` every call. Options are per call, so a swarm that only turned them on or off would
 * leave them as sparse as before; `all` is what piles them up.
 */
export type OptionLevel = 'off' | 'some' | 'all';

export type SwarmFeature = keyof SwarmFeatures;

/** The features that are levels of a call option; the others are on or off. */
export type OptionFeature = { [K in SwarmFeature]: SwarmFeatures[K] extends OptionLevel ? K : never }[SwarmFeature];

const OPTION_FEATURES: ReadonlySet<SwarmFeature> = new Set<OptionFeature>(['timeout', 'maxTotal', 'resetOnProgress', 'onprogress', 'signalOption']);

const LEVELS: readonly OptionLevel[] = ['off', 'some', 'all'];

/** Every feature, in the order they are drawn (the order is part of the generated values). */
export const SWARM_FEATURES: readonly SwarmFeature[] = Object.freeze([
  'timeout',
  'maxTotal',
  'resetOnProgress',
  'onprogress',
  'progressSteps',
  'sleeps',
  'nestedCalls',
  'hangs',
  'errors',
  'abortPolicies',
  'signalOption',
  'aborts',
  'serverRequests',
  'closes',
  'reconnects',
  'drops',
  'severalClients',
  'eventStore',
] as const);

/**
 * A case's features. `allowed` are those the workload permits (a feature its flags turn off is
 * never on). Two in five cases are "mixed": every allowed feature on, options at `some`, the
 * plain campaign of before; the others turn each feature off 1 time in 4, and set an option
 * to `all` 1 time in 2. Everything shrinks toward "off": first the mixed switch (to the drawn
 * levels), then each feature, so a counterexample keeps only the features its failure needs.
 */
export function swarmFeaturesArbitrary(allowed: ReadonlySet<SwarmFeature>): fc.Arbitrary<SwarmFeatures> {
  // 0..4, 3 and 4 are mixed: drawn 2 in 5, shrunk to 0.
  const mixed = fc.integer({ min: 0, max: 4 }).map((n) => n >= 3);
  // 0..3, 0 is off (1 in 4: a case loses about four features, and what they leave goes to the
  // rest); an option's 1 is some, 2 and 3 all.
  const draws = fc.tuple(...SWARM_FEATURES.map(() => fc.integer({ min: 0, max: 3 })));
  return fc.tuple(mixed, draws).map(([all, drawn]) => {
    const features: Record<string, boolean | OptionLevel> = {};
    SWARM_FEATURES.forEach((f, i) => {
      const n = !allowed.has(f) ? 0 : all ? 1 : drawn[i]!;
      features[f] = OPTION_FEATURES.has(f) ? LEVELS[Math.min(n, 2)]! : n > 0;
    });
    return features as unknown as SwarmFeatures;
  });
}
