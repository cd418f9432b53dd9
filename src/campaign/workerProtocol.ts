/**
 * The messages between a campaign and its worker threads (`workerPool.ts` ↔ `campaignWorker.ts`).
 * Everything crosses by structured clone: plain data, Maps and RegExps.
 */
import type { CampaignTally, CasesJob, Counterexample, ShrinkSettings, ShrinkTask } from './runCampaign.ts';

/** What a worker is started with. */
export interface WorkerStart {
  /** URL of `campaignWorker.ts`. */
  readonly entry: string;
  /** Plain JavaScript modules to import before tsx is registered (they load faster without its hooks). */
  readonly preload: readonly string[];
  /** The SDK release the campaign runs: loaded from `root`, checked against `name@version`. */
  readonly sdk: { readonly root: string; readonly name: string; readonly version: string };
  /** One Int32: 0 while the worker may go on, 1 once it must stop after its current run (and cut shrinking). */
  readonly stop: SharedArrayBuffer;
  /** The worker's number, 1-based, for messages. */
  readonly number: number;
}

/** Main thread → worker. */
export type WorkerTask =
  | { readonly kind: 'cases'; readonly id: number; readonly job: CasesJob }
  | { readonly kind: 'shrink'; readonly id: number; readonly task: ShrinkTask; readonly settings: ShrinkSettings };

/** An error as it crosses the thread boundary. */
export interface WorkerErrorInfo {
  readonly message: string;
  readonly stack?: string;
  /** The case whose run threw, when it was a run. */
  readonly index?: number;
}

/** Worker → main thread. */
export type WorkerReply =
  | { readonly kind: 'ready' }
  | { readonly kind: 'start-failed'; readonly error: WorkerErrorInfo }
  | { readonly kind: 'cases'; readonly id: number; readonly tally: CampaignTally }
  | { readonly kind: 'shrink'; readonly id: number; readonly counterexample: Counterexample | undefined }
  | { readonly kind: 'failed'; readonly id: number; readonly error: WorkerErrorInfo };
