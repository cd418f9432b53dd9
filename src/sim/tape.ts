/**
 * A schedule tape: the scheduler's choices, as naturals. Choice k among n enabled actions picks
 * index k mod n; past the tape's end the natural choice (0) is taken. Shrinking a tape toward
 * zeros therefore shrinks a schedule toward the natural order.
 */
export class Tape {
  private position = 0;
  /** The indices actually taken, one per step (what a replay needs). */
  readonly taken: number[] = [];

  constructor(private readonly choices: readonly number[] = []) {}

  next(enabled: number): number {
    const raw = this.position < this.choices.length ? this.choices[this.position++]! : 0;
    const index = raw % enabled;
    this.taken.push(index);
    return index;
  }

  /** Records a choice made by another scheduler (an explorer's), so `taken` still replays the run. */
  take(index: number): number {
    this.taken.push(index);
    return index;
  }
}
