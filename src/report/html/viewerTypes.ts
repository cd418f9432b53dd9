/**
 * The data the HTML viewer draws, embedded in the page as the report's `viewer` field
 * (`docs/report-format.md`, "The HTML viewer"). Plain JSON: the page's code imports these types
 * only, so the bundle holds no Node code.
 */

/** One trace event, as `src/sim/trace.ts` records it (`i`, `step`, `t` and the kind's fields). */
export type ViewerEvent = { readonly i: number; readonly step: number; readonly t: number; readonly kind: string } & Readonly<Record<string, unknown>>;

/** A request as the lifecycle model sees it after a step (the walker's requester and receiver machines). */
export interface ViewerRequest {
  /** The call label (`c1`) or `side:conn:id` for a request without a caller's call. */
  readonly key: string;
  readonly side: 'client' | 'server';
  readonly role: 'requester' | 'receiver';
  readonly method: string;
  readonly id: string;
  /** The machine's `wire` region (`pending`, `cancelled`, `responded`, …), `unsent` before the request left. */
  readonly wire: string;
  /** Requester: the caller's promise (`waiting`, `settled: timeout`); receiver: the handler's region. Absent on a real-time trace (the wire shows neither). */
  readonly other?: string;
}

export type ViewerMaps = Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
export interface ViewerTimer {
  readonly id: number;
  readonly label: string;
  readonly atMs: number;
}

/** One step of a run: the scheduler's choice, and the state after it (real time: one recorded event, in time order). */
export interface ViewerStep {
  readonly step: number;
  /** Virtual ms (real ms on a real-time trace) at the step's last event. */
  readonly t: number;
  /** The action taken, by meaning; absent at step 0 (setup). */
  readonly action?: string;
  readonly choice: number;
  /** Every action enabled when the choice was made; absent when the run was not observed (real-time traces). */
  readonly enabled?: readonly string[];
  /**
   * `requests`, `maps` and `timers` are left out where they did not change since the previous
   * step (the page reads them from the last step that has them): a page stays small.
   */
  readonly requests?: readonly ViewerRequest[];
  /** The SDK's correlation maps after the step: side → private field name → keys; absent in every step of a run nobody observed. */
  readonly maps?: ViewerMaps;
  /** Virtual timers pending after the step. */
  readonly timers?: readonly ViewerTimer[];
}

/** One run of a case: its trace, steps and findings. */
export interface ViewerRun {
  readonly label: string;
  /** What makes it this run (the tape, what changed against the shrunk case). */
  readonly note: string;
  readonly tape: readonly number[];
  readonly seed: number;
  readonly traceHash: string;
  readonly events: readonly ViewerEvent[];
  readonly steps: readonly ViewerStep[];
  readonly findings: readonly { readonly invariant: string; readonly level: string; readonly message: string }[];
}

/** One finding, as the page shows it. */
export interface ViewerFinding {
  /** Its deep-link name (`#finding=<id>`): the invariant, with its clause and a number when repeated. */
  readonly id: string;
  readonly invariant: string;
  readonly level: string;
  readonly section: string;
  readonly clause?: string;
  /** The rule, from the catalogue. */
  readonly property: string;
  /** One sentence of why, from the run that found it. */
  readonly message: string;
  readonly commands: readonly { readonly label: string; readonly command: string }[];
  /**
   * Indices into `ViewerData.runs` (findings of one campaign often share a case): the shrunk (or
   * replayed) case; `original` the campaign case it was shrunk from; `counterfactual` the
   * nearest schedule without the finding.
   */
  readonly runs: { readonly shrunk: number; readonly original?: number; readonly counterfactual?: number };
  /** What the page cannot show for this finding, and why (a run the report does not let us draw). */
  readonly absent: readonly string[];
}

export interface ViewerData {
  readonly version: 1;
  /** `virtual`: simulated, deterministic; `real`: a black-box, real-time run (times are real ms). */
  readonly clock: 'virtual' | 'real';
  readonly title: string;
  readonly subtitle: string;
  /** A real-time campaign's efficiency line: runs/s, start-up, the share of wall time the server worked on calls. */
  readonly efficiency?: string;
  /** A real-time campaign's calls by tool (`work: 40 call(s), 12 cancelled, …`): what its runs exercised, so a clean page can be checked. */
  readonly toolCounts?: readonly string[];
  readonly findings: readonly ViewerFinding[];
  /** Every run the findings show, each once. */
  readonly runs: readonly ViewerRun[];
  /** A campaign's coverage: race pairs and model transitions, each with its run count. */
  readonly coverage?: { readonly races: Readonly<Record<string, number>>; readonly transitions: Readonly<Record<string, number>> };
}
