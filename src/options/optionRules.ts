import { KNOWN_PROFILES, SEED_MAX } from './defaults.ts';
import { OptionError, type OptionName } from './OptionError.ts';
import type { Profile } from '../sim/scenario.ts';
import { LEAVABLE_PARTS, type LeavablePart } from '../workload/leavableParts.ts';

/** The environment the resolvers read overrides from (`process.env` unless a test passes its own). */
export type Env = Readonly<Record<string, string | undefined>>;

/** A whole number from `min` to `max`, or an `OptionError` saying which option and what to give. */
export function wholeNumber(name: OptionName, value: unknown, min: number, max = Number.MAX_SAFE_INTEGER, fallback?: number): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max) return value;
  const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`;
  const fix = name.env
    ? `set ${name.env} to a whole number ${range}, or unset it`
    : `give a whole number ${range}${fallback === undefined ? '' : `, or leave it out for the default ${fallback}`}`;
  throw new OptionError(name, value, `must be a whole number ${range}`, fix);
}

/** A seed: a whole number that fits the 32 bits case seeds are mixed from. */
export function seedValue(name: OptionName, value: unknown, fallback?: number): number {
  return wholeNumber(name, value, 0, SEED_MAX, fallback);
}

/**
 * The output paths a report command takes (`--out`, `--json`, `--junit`, `--report`): each one
 * given must be a non-empty path; `reproDir` may be left out for `defaultReproDir`.
 */
export function outputPaths(
  input: { readonly reproDir?: unknown; readonly jsonFile?: unknown; readonly junitFile?: unknown; readonly markdownFile?: unknown },
  defaultReproDir: string,
): void {
  for (const [option, flag] of [['reproDir', '--out'], ['jsonFile', '--json'], ['junitFile', '--junit'], ['markdownFile', '--report']] as const) {
    const v = input[option];
    if (v !== undefined && (typeof v !== 'string' || v.trim() === '')) {
      throw new OptionError({ option, flag }, v, 'must be a non-empty path', `give a path${option === 'reproDir' ? `, or leave it out for ${defaultReproDir}` : ', or leave it out'}`);
    }
  }
}

/** A boolean (a programmatic caller may pass anything). */
export function booleanValue(name: OptionName, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  throw new OptionError(name, value, 'must be true or false', `pass a boolean${name.flag ? ` (the flag ${name.flag} takes no value)` : ''}`);
}

/** A non-empty list of known profiles, each at most once (order matters: it changes the cases drawn). */
export function profileList(name: OptionName, value: unknown): readonly Profile[] {
  const known = KNOWN_PROFILES.join(', ');
  const fix = `name one or more of ${known}${name.flag ? `, comma-separated (${name.flag} ${KNOWN_PROFILES.join(',')})` : ''}`;
  if (!Array.isArray(value) || value.length === 0) throw new OptionError(name, value, 'must name at least one transport profile', fix);
  const unknown = value.filter((p) => !KNOWN_PROFILES.includes(p as Profile));
  if (unknown.length > 0) throw new OptionError(name, value, `has unknown profile(s) ${unknown.map((p) => JSON.stringify(p)).join(', ')}; the simulator has ${known}`, fix);
  if (new Set(value).size !== value.length) throw new OptionError(name, value, 'names a profile twice (that would weight the draw)', 'name each profile once');
  return Object.freeze([...value]) as readonly Profile[];
}

/** Parts of the workload to leave out, each known; in `LEAVABLE_PARTS` order, once each (it is a set). */
export function leavablePartList(name: OptionName, value: unknown): readonly LeavablePart[] {
  const fix = `name any of ${LEAVABLE_PARTS.join(', ')}${name.flag ? `, comma-separated (${name.flag} ${LEAVABLE_PARTS.join(',')})` : ''}`;
  if (!Array.isArray(value)) throw new OptionError(name, value, 'must be a list of workload parts', fix);
  const unknown = value.filter((p) => !LEAVABLE_PARTS.includes(p as LeavablePart));
  if (unknown.length > 0) throw new OptionError(name, value, `has unknown part(s) ${unknown.map((p) => JSON.stringify(p)).join(', ')}`, fix);
  return Object.freeze(LEAVABLE_PARTS.filter((p) => value.includes(p)));
}

/**
 * A whole-number override from the environment: undefined when unset or empty, otherwise checked
 * with the same rule as the option it overrides.
 */
export function envWholeNumber(env: Env, variable: string, option: string, min: number, max?: number): number | undefined {
  const raw = env[variable];
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : raw;
  return wholeNumber({ option, env: variable }, n, min, max);
}
