/**
 * A sweep (`check --seeds A..B`): one campaign per seed, in seed order, on one set of worker
 * threads. A nightly job that sweeps a fresh range of seeds meets new cases every night while
 * every finding stays replayable by its seed and case.
 */
import type { KnownCauses } from './knownCauses.ts';
import type { ResolvedCampaignOptions } from '../options/index.ts';
import type { SdkAdapter } from '../sdk/index.ts';
import { realGlobals } from '../sim/realGlobals.ts';
import { campaignOn, workersFor } from './check.ts';
import type { CampaignHooks, CampaignReport, StopReason } from './runCampaign.ts';

export interface SweepResult {
  /** The campaigns run, in seed order (the last one may be cut: see its `stopped`). */
  readonly reports: readonly CampaignReport[];
  /** Seeds not run because the sweep stopped first. */
  readonly notRun: readonly number[];
  /** Why the sweep stopped before its last seed was done, if it did. */
  readonly stopped?: StopReason;
}

export interface SweepHooks {
  readonly onCampaignStart?: (seed: number, position: number, count: number) => void;
  readonly onProgress?: CampaignHooks['onProgress'];
  readonly onCampaignDone?: (report: CampaignReport) => void;
  readonly signal?: AbortSignal;
  /** The SDK release's known causes: each campaign's findings are told apart by them. */
  readonly known?: KnownCauses;
}

/**
 * Runs the campaign of `options` once for each seed of `options.seeds`. A time limit bounds the
 * whole sweep: each campaign gets what is left of it, and seeds not reached are listed as not run.
 */
export async function sweepOn(sdk: SdkAdapter, options: ResolvedCampaignOptions, hooks: SweepHooks = {}): Promise<SweepResult> {
  const seeds = options.seeds ?? [options.seed];
  const started = realGlobals.Date.now();
  const workers = workersFor(sdk, options);
  const reports: CampaignReport[] = [];
  let stopped: StopReason | undefined;
  try {
    for (const [i, seed] of seeds.entries()) {
      if (hooks.signal?.aborted) stopped = 'interrupted';
      const left = options.timeLimitSeconds === undefined ? undefined : options.timeLimitSeconds - (realGlobals.Date.now() - started) / 1000;
      if (left !== undefined && left <= 0) stopped ??= 'time-limit';
      if (stopped) break;
      hooks.onCampaignStart?.(seed, i + 1, seeds.length);
      const report = await campaignOn(sdk, { ...options, seed, seeds: undefined, timeLimitSeconds: left }, hooks.onProgress, {
        ...(hooks.signal && { signal: hooks.signal }),
        ...(workers && { workers }),
        ...(hooks.known && { known: hooks.known }),
      });
      reports.push(report);
      hooks.onCampaignDone?.(report);
      if (report.stopped) {
        stopped = report.stopped;
        break;
      }
    }
  } finally {
    await workers?.close();
  }
  const notRun = seeds.slice(reports.length);
  return { reports, notRun, ...(stopped && notRun.length + reports.filter((r) => r.stopped).length > 0 && { stopped }) };
}
