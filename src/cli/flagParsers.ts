import { InvalidArgumentError } from 'commander';

/**
 * Parses the text of a numeric flag into a number, naming the flag when it is not a whole
 * number. Ranges are the resolvers' business (src/options/), so the rule lives in one place.
 */
export function wholeNumberArg(flag: string) {
  return (value: string): number => {
    if (!/^\s*\d+\s*$/.test(value)) throw new InvalidArgumentError(`${flag} takes a whole number, got "${value}".`);
    return Number(value);
  };
}

/** Splits `memory,http` into names; which names are known is the resolver's business. */
export function commaListArg(value: string): string[] {
  return value.split(',').map((s) => s.trim()).filter(Boolean);
}

/** Parses the text of a flag that takes a number of seconds, fractions allowed (`--time-limit 1.5`). */
export function secondsArg(flag: string) {
  return (value: string): number => {
    if (!/^\s*\d+(\.\d+)?\s*$/.test(value)) throw new InvalidArgumentError(`${flag} takes a number of seconds, got "${value}".`);
    return Number(value);
  };
}
