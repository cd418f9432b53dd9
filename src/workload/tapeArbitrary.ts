import fc from 'fast-check';
import { DEFAULT_TAPE_CHOICE_MAX, DEFAULT_TAPE_LENGTH_MAX } from '../options/defaults.ts';

/** Bounds of generated schedule tapes. */
export interface TapeConstraints {
  /** Longest tape. @default DEFAULT_TAPE_LENGTH_MAX (48) */
  readonly lengthMax?: number;
  /** Largest choice; choices wrap modulo the number of enabled actions. @default DEFAULT_TAPE_CHOICE_MAX (7) */
  readonly choiceMax?: number;
}

/**
 * Schedule tapes: naturals that shrink toward zero (the natural order) and toward shorter tapes,
 * so a shrunk counterexample deviates from the natural order only where the race needs it.
 */
export function tapeArbitrary(constraints: TapeConstraints = {}): fc.Arbitrary<number[]> {
  const { lengthMax = DEFAULT_TAPE_LENGTH_MAX, choiceMax = DEFAULT_TAPE_CHOICE_MAX } = constraints;
  // Mostly natural choices with a few deviations: a tape of uniform choices derails nearly every
  // run at the handshake (the timer is often one of two enabled actions), leaving the workload
  // unexercised.
  const choice = fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat({ max: choiceMax }) });
  return fc.array(choice, { maxLength: lengthMax });
}
