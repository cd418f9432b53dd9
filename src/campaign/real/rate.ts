/** How often a minimal case failed again when re-run: real time, so never implied, always counted. */
export interface Rate {
  readonly hits: number;
  readonly runs: number;
}

/** The reproduction rate in words: `reproduced 10/10`, `3/10: timing-dependent`. */
export function determinismOf(hits: number, runs: number): string {
  if (hits === runs) return `reproduced ${hits}/${runs}`;
  if (hits === 0) return `reproduced 0/${runs}: seen in the campaign only (timing-dependent, rare)`;
  return `${hits}/${runs}: timing-dependent`;
}

/** A rate in words, and whether its re-runs stopped once it was decided: `reproduced 5/5, stopped early`. */
export function rateWords(rate: Rate & { readonly stoppedEarly?: boolean }): string {
  return `${determinismOf(rate.hits, rate.runs)}${rate.stoppedEarly ? ', stopped early' : ''}`;
}
