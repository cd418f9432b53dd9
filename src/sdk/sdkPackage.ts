import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** An SDK package on disk: its identity and where its files are. */
export interface SdkPackage {
  /** The name in its package.json. */
  readonly name: string;
  readonly version: string;
  /** The folder of its package.json, symlinks resolved. */
  readonly root: string;
  /** Its `exports` map, when it has one. */
  readonly exports: unknown;
}

interface PackageJson {
  readonly name?: string;
  readonly version?: string;
  readonly exports?: unknown;
}

function readPackageJson(file: string): PackageJson | undefined {
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
}

function packageAt(root: string, json: PackageJson): SdkPackage {
  return { name: json.name!, version: json.version!, root: realpathSync(root), exports: json.exports };
}

/**
 * The package `name` (a package or an npm alias) as Node resolves it from `from` (a file), or
 * `undefined` when it is not installed there. The `exports` map hides package.json, so this
 * resolves a module the package exports (`subpath`: 1.x's `types.js`; `.`, the main entry, for 2.x) and walks up to the first package.json with a name
 * (`dist/*` hold nameless `{"type": …}` stubs).
 */
export function findPackage(name: string, from: string, subpath = 'types.js'): SdkPackage | undefined {
  let file: string;
  try {
    file = createRequire(from).resolve(subpath === '.' ? name : `${name}/${subpath}`);
  } catch {
    return undefined;
  }
  for (let dir = dirname(file); dirname(dir) !== dir; dir = dirname(dir)) {
    const json = readPackageJson(join(dir, 'package.json'));
    if (json?.name !== undefined && json.version !== undefined) return packageAt(dir, json);
  }
  return undefined;
}

/**
 * The SDK in folder `path`: the package itself, or a project with it in its own
 * `node_modules` (no walking up: the folder says which SDK it means). `undefined` when neither.
 */
export function packageInFolder(path: string, sdkName: string): SdkPackage | undefined {
  for (const root of [resolve(path), join(resolve(path), 'node_modules', sdkName)]) {
    const json = readPackageJson(join(root, 'package.json'));
    if (json?.name === sdkName && json.version !== undefined) return packageAt(root, json);
  }
  return undefined;
}

/**
 * The file URL an ESM `import` of `subpath` (e.g. `client/index.js`; `.` is the package's main entry) of the package loads,
 * following its `exports` map with the `import` condition, or `undefined` when it exports no
 * such file. The map is followed here, not by Node, because Node only resolves bare names
 * from the importing module's own location, and a package folder may be anywhere.
 */
export function moduleUrl(pkg: SdkPackage, subpath: string): string | undefined {
  const key = subpath === '.' ? '.' : `./${subpath}`;
  const target = pkg.exports === undefined ? key : exportTarget(pkg.exports, key);
  if (target === undefined) return undefined;
  const file = join(pkg.root, target);
  return existsSync(file) ? pathToFileURL(file).href : undefined;
}

/** The target of `key` in an `exports` map: an exact entry, else the longest matching `*` pattern. */
function exportTarget(exports: unknown, key: string): string | undefined {
  if (typeof exports !== 'object' || exports === null || Array.isArray(exports)) return undefined;
  const map = exports as Record<string, unknown>;
  if (key in map) return conditional(map[key]);
  let best: { prefix: string; suffix: string; value: unknown } | undefined;
  for (const [pattern, value] of Object.entries(map)) {
    const star = pattern.indexOf('*');
    if (star < 0) continue;
    const prefix = pattern.slice(0, star);
    const suffix = pattern.slice(star + 1);
    if (key.startsWith(prefix) && key.endsWith(suffix) && key.length >= pattern.length - 1 && (!best || prefix.length > best.prefix.length)) {
      best = { prefix, suffix, value };
    }
  }
  if (!best) return undefined;
  const match = key.slice(best.prefix.length, key.length - best.suffix.length);
  return conditional(best.value)?.replaceAll('*', match);
}

/** A target string, through nested conditions: the first of `import`, `node`, `default` in map order, as Node picks. */
function conditional(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  for (const [condition, inner] of Object.entries(value as Record<string, unknown>)) {
    if (condition !== 'import' && condition !== 'node' && condition !== 'default') continue;
    const target = conditional(inner);
    if (target !== undefined) return target;
  }
  return undefined;
}
