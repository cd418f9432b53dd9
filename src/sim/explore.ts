import { runScenario, type RunOptions, type RunResult } from './runScenario.ts';
import type { Scenario } from './scenario.ts';

export interface ExploreOptions extends Omit<RunOptions, 'tape'> {
  /** Most runs before giving up. @default 2_000 */
  readonly runsMax?: number;
}

/**
 * Walks the schedule tree breadth-first by deviations: every run branches, at every later step
 * where several actions were enabled, into the alternatives not yet tried, so all schedules with
 * one deviation from the natural order run before any with two (minimal races come first). Returns the first run `accept` takes, or
 * `undefined` after `runsMax` runs. Exhaustive for small scenarios, so a test can show that an
 * order is reachable instead of hoping a random tape finds it.
 */
export async function exploreSchedules(
  scenario: Scenario,
  accept: (run: RunResult) => boolean,
  options: ExploreOptions = {},
): Promise<RunResult | undefined> {
  const { runsMax = 2_000, ...runOptions } = options;
  const pending: number[][] = [[]];
  for (let runs = 0; runs < runsMax && pending.length > 0; runs++) {
    const prefix = pending.shift()!;
    const run = await runScenario(scenario, { ...runOptions, tape: prefix });
    if (accept(run)) return run;
    const choices = run.trace.filter((e) => e.kind === 'action');
    for (let step = prefix.length; step < choices.length; step++) {
      const e = choices[step]!;
      if (e.kind !== 'action') continue;
      for (let alt = 1; alt < e.enabled; alt++) pending.push([...run.taken.slice(0, step), alt]);
    }
  }
  return undefined;
}
