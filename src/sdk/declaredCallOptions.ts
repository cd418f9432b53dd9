import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The call options of `Protocol.request` whose presence decides what a campaign may ask of a release. */
export interface DeclaredCallOptions {
  readonly resetTimeoutOnProgress: boolean;
  readonly maxTotalTimeout: boolean;
}

/**
 * Which timeout options a release *declares* in its `RequestOptions` type, read from its type
 * declarations (`files`, the `.d.ts` / `.d.mts` text). Declared, not observed: whether the
 * release honours an option is the oracle's to judge. A probe of the behaviour would take a
 * broken option for an absent one and cut it from the campaign, hiding the very bug (a patched
 * copy whose `maxTotalTimeout` does nothing would look like a release without it).
 */
export function declaredCallOptions(files: readonly string[]): DeclaredCallOptions {
  const text = files.filter((f) => existsSync(f)).map((f) => readFileSync(f, 'utf8'));
  const declares = (option: string) => text.some((t) => new RegExp(`\\b${option}\\?:`).test(t));
  return { resetTimeoutOnProgress: declares('resetTimeoutOnProgress'), maxTotalTimeout: declares('maxTotalTimeout') };
}

/** The type declaration files of a bundled package (2.x ships hashed `.d.mts` chunks). */
export function declarationFilesIn(dist: string): string[] {
  if (!existsSync(dist)) return [];
  return readdirSync(dist)
    .filter((f) => f.endsWith('.d.mts') || f.endsWith('.d.ts'))
    .map((f) => join(dist, f));
}
