/**
 * The plug-in contract for benchmark suites.
 *
 * Why: `bench/run.ts` runs every suite the same way (flags, SDK versions, tables, charts,
 * summary), so a suite only has to say what it measures. The harness benchmark in
 * `bench/harness.bench.ts` (owned elsewhere) plugs in by exporting `harnessSuite: BenchSuite`.
 */
import type { SdkAdapter } from '../../src/sdk/SdkAdapter.ts';

/** What one suite run gets from the runner. */
export interface SuiteContext {
  /** The SDK under test, loaded by `src/sdk/load.ts` (never import the SDK directly in a suite: go through the adapter, which serves 1.x and 2.x alike). */
  sdk: SdkAdapter;
  /** `--quick`: fewer N values and fewer iterations, for a rough picture in under a minute. */
  quick: boolean;
  /** Largest N a suite may use (`--max-n`, else +Infinity); suites cap their own N lists with it. */
  maxN: number;
  /** Progress line to the terminal (stderr), so stdout keeps only the tables. */
  log: (message: string) => void;
}

/** One measured point of a curve: the cost of one operation with `n` in flight. */
export interface Point {
  /** The size on the x axis (requests in flight, tokens, storm length, ...). */
  n: number;
  /** Operations timed per sample (a sample times a whole batch, e.g. K cancellations). */
  opsPerSample: number;
  /** Mean cost of one operation, in nanoseconds (real clock). */
  nsPerOp: number;
  /** Median sample divided by `opsPerSample`, in nanoseconds. */
  p50NsPerOp: number;
  /** Relative margin of error of the sample mean, in percent (tinybench). */
  rmePct: number;
  /** Samples taken (tinybench runs, warm-up excluded). */
  samples: number;
  /** Retained heap per in-flight request, in bytes, when the suite probes it. */
  heapBytesPerInFlight?: number;
  /** Largest size seen in the SDK's correlation maps during the run (sanity check of "in flight"). */
  peakInFlight?: number;
}

/** A cost-against-N curve: one code path measured at several sizes. */
export interface Curve {
  /** Stable id, unique across suites, e.g. `sdk/request-response`, `floor/request-response`. */
  id: string;
  /** Human label for tables and charts. */
  label: string;
  /** What one operation is ("request", "progress notification", ...). */
  op: string;
  /** What N counts on the x axis. */
  nMeaning: string;
  /** Id of the floor curve this SDK curve is compared to, if any. */
  floorId?: string;
  /** Version of the SDK measured, or undefined for SDK-independent curves (the floor). */
  sdkVersion?: string;
  points: Point[];
}

/** A correlation entry left behind after a suite finished: a leak. */
export interface Leak {
  /** Which object held it, e.g. `client (Protocol)` or `http transport`. */
  where: string;
  /** The private field name, e.g. `_responseHandlers`. */
  field: string;
  size: number;
  /** The run that left it, e.g. `N=1000`. */
  context: string;
}

export interface SuiteResult {
  name: string;
  description: string;
  /** Version of the SDK measured, or undefined when the suite does not use the SDK. */
  sdkVersion?: string;
  curves: Curve[];
  leaks: Leak[];
  /** Free-form remarks: absent map fields, skipped parts, method used for heap, errors seen. */
  notes: string[];
  /** Set when the whole suite could not run (e.g. a module missing in an old SDK). */
  skipped?: string;
}

export interface BenchSuite {
  name: string;
  description: string;
  /** True when the suite does not depend on the SDK version (runs once under `--compare`). */
  sdkIndependent?: boolean;
  run(ctx: SuiteContext): Promise<SuiteResult>;
}
