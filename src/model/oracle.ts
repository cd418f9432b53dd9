/**
 * @deprecated The oracle's entry points moved: `judge` and `judgeWithCoverage` to `judge.ts`,
 * `Coverage` to `coverage.ts`. TODO(lead): delete once src/campaign/runCampaign.ts imports
 * `Coverage` from `../model/coverage.ts`.
 */
export { judge, judgeWithCoverage, type JudgeOptions } from './judge.ts';
export type { Coverage } from './coverage.ts';
