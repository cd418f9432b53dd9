/**
 * The one loader of SDK releases, for the CLI, the properties and the benchmarks. A release is
 * imported dynamically from where it lies, so several can live in one process (`--sdk`,
 * `--compare`) and nothing else imports the SDK.
 */
import { resolve } from 'node:path';
import { messageOf } from '../util/errors.ts';
import type { SdkAdapter } from './SdkAdapter.ts';
import { findPackage, moduleUrl, packageInFolder, type SdkPackage } from './sdkPackage.ts';
import { importV1Modules } from './v1/modules.ts';
import { createV1Adapter } from './v1/v1Adapter.ts';

/** The SDK's package name. */
export const SDK_PACKAGE = '@modelcontextprotocol/sdk';

/** Where a release is loaded from. */
export type SdkLocation =
  /** The SDK installed next to mcp-sim (its own dependency). */
  | { readonly kind: 'installed' }
  /** A package installed next to mcp-sim under another name: an npm alias such as `sdk-1.20.0`. */
  | { readonly kind: 'package'; readonly name: string }
  /** A folder: the SDK package itself, or a project with the SDK in its own `node_modules`. */
  | { readonly kind: 'folder'; readonly path: string };

/** Thrown when the release asked for is not where it was looked for; the message says what to do. */
export class SdkNotInstalledError extends Error {
  override name = 'SdkNotInstalledError';
}

/** The npm alias package name used for a given SDK version. */
export function aliasFor(version: string): string {
  return `sdk-${version}`;
}

/** The exact command that installs `version` side by side with the project's SDK. */
export function installCommand(version: string): string {
  return `npm i ${aliasFor(version)}@npm:${SDK_PACKAGE}@${version}`;
}

/** Name and version of the SDK installed next to mcp-sim, without loading it (reports and baselines name it). */
export function installedSdk(): { readonly name: string; readonly version: string } {
  const { name, version } = installedPackage();
  return { name, version };
}

function installedPackage(): SdkPackage {
  const pkg = findPackage(SDK_PACKAGE, import.meta.url);
  if (!pkg) throw new SdkNotInstalledError(`mcp-sim: ${SDK_PACKAGE} is not installed next to mcp-sim; run npm ci.`);
  return pkg;
}

/** Loads in flight or done, by package folder: two locations of one folder share one adapter. */
const loaded = new Map<string, Promise<SdkAdapter>>();

/** The release at `location`, loaded once per package folder. */
export function loadSdk(location: SdkLocation = { kind: 'installed' }): Promise<SdkAdapter> {
  let pkg: SdkPackage;
  try {
    pkg = locate(location);
  } catch (error) {
    return Promise.reject(error);
  }
  let adapter = loaded.get(pkg.root);
  if (!adapter) {
    adapter = adapterFor(pkg);
    loaded.set(pkg.root, adapter);
    // A failed load is not kept: installing the package and asking again must work.
    adapter.catch(() => loaded.delete(pkg.root));
  }
  return adapter;
}

let installed: Promise<SdkAdapter> | undefined;

/** The SDK installed next to mcp-sim: what every run uses unless told otherwise. Cached: runs ask for it each time. */
export function defaultSdk(): Promise<SdkAdapter> {
  if (!installed) {
    installed = loadSdk();
    installed.catch(() => (installed = undefined));
  }
  return installed;
}

/**
 * A release by version, as the benchmarks' `--sdk VERSION` names it: `installed` (or the
 * installed version) is mcp-sim's own SDK; any other version the alias package `sdk-VERSION`.
 */
export async function loadSdkVersion(version: string): Promise<SdkAdapter> {
  if (version === 'installed' || version === installedSdk().version) return loadSdk();
  const name = aliasFor(version);
  const pkg = findPackage(name, import.meta.url);
  if (!pkg) {
    throw new SdkNotInstalledError(
      `SDK ${version} is not installed (package "${name}" not found).\nInstall it side by side with:\n\n  ${installCommand(version)}\n`,
    );
  }
  if (pkg.version !== version) {
    throw new SdkNotInstalledError(`package "${name}" holds SDK ${pkg.version}, not ${version}. Reinstall it with:\n\n  ${installCommand(version)}\n`);
  }
  return loadSdk({ kind: 'package', name });
}

function locate(location: SdkLocation): SdkPackage {
  switch (location.kind) {
    case 'installed':
      return installedPackage();
    case 'package': {
      const pkg = findPackage(location.name, import.meta.url);
      if (!pkg) throw new SdkNotInstalledError(`mcp-sim: package "${location.name}" is not installed next to mcp-sim.`);
      return pkg;
    }
    case 'folder': {
      const pkg = packageInFolder(location.path, SDK_PACKAGE);
      if (!pkg) {
        throw new SdkNotInstalledError(
          `mcp-sim: no ${SDK_PACKAGE} in folder ${resolve(location.path)}: give the package's own folder or a project folder with node_modules/${SDK_PACKAGE}.`,
        );
      }
      return pkg;
    }
  }
}

/** Imports the release and builds the adapter of its major version. */
async function adapterFor(pkg: SdkPackage): Promise<SdkAdapter> {
  if (!/^1\./.test(pkg.version)) throw new Error(`mcp-sim: no adapter for ${pkg.name}@${pkg.version} (in ${pkg.root}); it supports 1.x.`);
  const modules = await importV1Modules((subpath) => moduleUrl(pkg, subpath)).catch((error: unknown) => {
    throw new Error(`mcp-sim: cannot load ${pkg.name}@${pkg.version} from ${pkg.root}: ${messageOf(error)}`, { cause: error });
  });
  return createV1Adapter({ name: pkg.name, version: pkg.version, root: pkg.root }, modules);
}
