import type { AbortPolicy, HandlerEnd, RequestMethod } from '../sim/scenario.ts';

/**
 * What the generator draws before a case's swarm features and timing palette apply
 * (`restrictOp`): every feature's values are drawn in every case, and the features that are
 * off are then stripped. Drawing does not depend on the features, so shrinking a feature to
 * "off" keeps the rest of the case as it was instead of drawing it anew.
 */

/** A handler step; a sleep's duration is an index into the case's timing palette. */
export type DraftStep =
  | { readonly kind: 'progress'; readonly progress: number; readonly total: number | undefined }
  | { readonly kind: 'sleep'; readonly duration: number }
  | { readonly kind: 'call'; readonly method: RequestMethod };

export interface DraftProgram {
  readonly steps: readonly DraftStep[];
  readonly end: HandlerEnd;
  readonly onAbort: AbortPolicy;
}

/**
 * A call option: `set` says whether a plain case (level `some`) sets it, `value` what it is set
 * to then and at level `all`. Durations are indices into the case's timing palette.
 */
export interface DraftOption<T> {
  readonly set: boolean;
  readonly value: T;
}

/** Call options; the two booleans, when set, are true or false by a coin (`all` makes them true). */
export interface DraftOptions {
  readonly timeout: DraftOption<number>;
  readonly resetTimeoutOnProgress: DraftOption<boolean>;
  readonly maxTotal: DraftOption<number>;
  readonly onprogress: DraftOption<boolean>;
  readonly signal: DraftOption<'a' | 'b'>;
}

export type DraftOp =
  | { readonly op: 'call'; readonly method: RequestMethod; readonly options: DraftOptions; readonly program: DraftProgram }
  | { readonly op: 'abort'; readonly signal: 'a' | 'b' }
  | { readonly op: 'close'; readonly side: 'client' | 'server' }
  /** `fresh`: a new SDK `Client` (memory only: `restrictOp` clears it on http). */
  | { readonly op: 'reconnect'; readonly fresh: boolean }
  /** http only: every SSE stream of the client breaks (`http-drop`). */
  | { readonly op: 'drop' };
