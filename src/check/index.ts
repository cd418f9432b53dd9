/** Run and judge in one call. */
export { runChecked, type CheckedRun, type CheckedRunOptions } from './runChecked.ts';
export type { EndState, MapReading } from '../sim/endState.ts';
