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
import { loadModernEra } from './modern/loadModernEra.ts';
import { createModernOnlyAdapter } from './modern/modernOnlyAdapter.ts';
import { modernPackagesIn } from './modern/modernPackages.ts';

/** The SDK's package name. */
export const SDK_PACKAGE = '@modelcontextprotocol/sdk';

/**
 * The environment variable that puts another copy of the SDK in the installed one's place: a
 * folder holding the SDK package, or a project folder with `node_modules/@modelcontextprotocol/sdk`
 * (a relative path is taken from the working directory). Every default load (`defaultSdk()`,
 * `loadSdk()`, `installedSdk()`) then uses that copy, so the CLI, the property suite and the
 * benchmarks run against it unchanged, and its baseline is the one of its own name@version: a
 * patched 1.32.2 (a mutant, a local fix) is judged against the 1.32.2 baseline.
 */
export const ENV_SDK = 'MCP_SIM_SDK';

/** Where a release is loaded from. */
export type SdkLocation =
  /** The SDK installed next to mcp-sim (its own dependency), or the copy `MCP_SIM_SDK` names. */
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

/**
 * Name and version of the SDK every run uses by default, without loading it (reports and
 * baselines name it): the one installed next to mcp-sim, or the copy `MCP_SIM_SDK` names.
 */
export function installedSdk(): { readonly name: string; readonly version: string } {
  const modernOnly = modernOnlyFolder({ kind: 'installed' });
  const { name, version } = modernOnly?.server ?? defaultPackage();
  return { name, version };
}

/**
 * A folder (named, or `MCP_SIM_SDK`'s) that holds the 2.x client and server packages and no
 * 1.x SDK: loaded as the 2.x packages' 2026-07-28 era alone (`createModernOnlyAdapter`).
 */
function modernOnlyFolder(location: SdkLocation): { path: string; root: string; server: SdkPackage } | undefined {
  const path = location.kind === 'folder' ? location.path : location.kind === 'installed' ? sdkOverride() : undefined;
  if (path === undefined || packageInFolder(path, SDK_PACKAGE)) return undefined;
  const modern = modernPackagesIn(path);
  return modern && { path, root: modern.server.root, server: modern.server };
}

/** The `MCP_SIM_SDK` folder, or `undefined` when the variable is unset or empty. */
function sdkOverride(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const path = env[ENV_SDK];
  return path === undefined || path.trim() === '' ? undefined : path;
}

/** The package of the default SDK: `MCP_SIM_SDK`'s copy when set, else the installed one. */
function defaultPackage(): SdkPackage {
  const path = sdkOverride();
  if (path === undefined) return installedPackage();
  const pkg = packageInFolder(path, SDK_PACKAGE);
  if (!pkg) {
    throw new SdkNotInstalledError(
      `${ENV_SDK}=${path} does not hold the SDK: no ${SDK_PACKAGE} in folder ${resolve(path)}. ` +
        `Point ${ENV_SDK} at the package's own folder (the one with its package.json) or a project folder with node_modules/${SDK_PACKAGE}, or unset it to use the installed SDK.`,
    );
  }
  return pkg;
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
  const modernOnly = modernOnlyFolder(location);
  if (modernOnly) return loadOnce(modernOnly.root, () => loadModernEra(modernOnly.path).then(createModernOnlyAdapter));
  let pkg: SdkPackage;
  try {
    pkg = locate(location);
  } catch (error) {
    return Promise.reject(error);
  }
  return loadOnce(pkg.root, () => adapterFor(pkg));
}

/** The adapter of the package at `root`, loaded once; a failed load is forgotten. */
function loadOnce(root: string, load: () => Promise<SdkAdapter>): Promise<SdkAdapter> {
  let adapter = loaded.get(root);
  if (!adapter) {
    adapter = load();
    loaded.set(root, adapter);
    // A failed load is not kept: installing the package and asking again must work.
    adapter.catch(() => loaded.delete(root));
  }
  return adapter;
}

/** The default SDK's load, and the `MCP_SIM_SDK` value it was made for. */
let installed: { readonly override: string | undefined; readonly adapter: Promise<SdkAdapter> } | undefined;

/**
 * The SDK installed next to mcp-sim, or the copy `MCP_SIM_SDK` names: what every run uses
 * unless told otherwise. Cached (runs ask for it each time) for the variable's current value.
 */
export function defaultSdk(): Promise<SdkAdapter> {
  const override = sdkOverride();
  if (!installed || installed.override !== override) {
    const adapter = loadSdk();
    installed = { override, adapter };
    adapter.catch(() => {
      if (installed?.adapter === adapter) installed = undefined;
    });
  }
  return installed.adapter;
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
      return defaultPackage();
    case 'package': {
      const pkg = findPackage(location.name, import.meta.url);
      if (!pkg) throw new SdkNotInstalledError(`mcp-sim: package "${location.name}" is not installed next to mcp-sim.`);
      return pkg;
    }
    case 'folder': {
      const pkg = packageInFolder(location.path, SDK_PACKAGE);
      if (!pkg) {
        throw new SdkNotInstalledError(
          `mcp-sim: no ${SDK_PACKAGE} in folder ${resolve(location.path)}: give the package's own folder or a project folder with node_modules/${SDK_PACKAGE} (or, for --spec 2026-07-28, a project folder with the 2.x @modelcontextprotocol/client and /server).`,
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
