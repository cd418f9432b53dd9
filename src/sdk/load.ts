/**
 * The one loader of SDK releases, for the CLI, the properties and the benchmarks. A release is
 * imported dynamically from where it lies, so several can live in one process (`--sdk`,
 * `--compare`) and nothing else imports the SDK.
 */
import { resolve } from 'node:path';
import { messageOf } from '../util/errors.ts';
import { ENV_SDK } from './envNames.ts';
import type { SdkAdapter } from './SdkAdapter.ts';
import { SdkNotInstalledError } from './SdkNotInstalledError.ts';
import { findPackage, moduleUrl } from './sdkPackage.ts';
import { RELEASE_FOLDER_HINT, releaseInFolder, SDK_PACKAGE, v1Release, type SdkRelease } from './sdkRelease.ts';
import { importV1Modules } from './v1/modules.ts';
import { createV1Adapter } from './v1/v1Adapter.ts';
import { importV2Modules } from './v2/modules.ts';
import { createV2Adapter } from './v2/v2Adapter.ts';

export { SDK_PACKAGE, V2_CLIENT_PACKAGE, V2_SERVER_PACKAGE } from './sdkRelease.ts';
export { SdkNotInstalledError } from './SdkNotInstalledError.ts';

export { ENV_SDK };

/** Where a release is loaded from. */
export type SdkLocation =
  /** The SDK installed next to mcp-sim (its own dependency), or the copy `MCP_SIM_SDK` names. */
  | { readonly kind: 'installed' }
  /** A package installed next to mcp-sim under another name: an npm alias such as `sdk-1.20.0`. */
  | { readonly kind: 'package'; readonly name: string }
  /** A folder: the SDK package itself, a project with the SDK in its own `node_modules`, or the 2.x pair (`releaseInFolder`). */
  | { readonly kind: 'folder'; readonly path: string };

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
  const { name, version } = defaultRelease();
  return { name, version };
}

/** The `MCP_SIM_SDK` folder, or `undefined` when the variable is unset or empty. */
function sdkOverride(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const path = env[ENV_SDK];
  return path === undefined || path.trim() === '' ? undefined : path;
}

/** The release of the default SDK: `MCP_SIM_SDK`'s copy when set, else the installed one. */
function defaultRelease(): SdkRelease {
  const path = sdkOverride();
  if (path === undefined) return installedV1Release();
  const release = releaseInFolder(path);
  if (!release) {
    throw new SdkNotInstalledError(
      `${ENV_SDK}=${path} does not hold the SDK: no ${SDK_PACKAGE} in folder ${resolve(path)}, nor the 2.x pair. ` +
        `Point ${ENV_SDK} at the package's own folder (the one with its package.json) or a project folder with node_modules/${SDK_PACKAGE} (or the 2.x pair), or unset it to use the installed SDK.`,
    );
  }
  return release;
}

function installedV1Release(): SdkRelease {
  const pkg = findPackage(SDK_PACKAGE, import.meta.url);
  if (!pkg) throw new SdkNotInstalledError(`mcp-sim: ${SDK_PACKAGE} is not installed next to mcp-sim; run npm ci.`);
  return v1Release(pkg);
}

/** Loads in flight or done, by package folder: two locations of one folder share one adapter. */
const loaded = new Map<string, Promise<SdkAdapter>>();

/** The release at `location`, loaded once per package folder. */
export function loadSdk(location: SdkLocation = { kind: 'installed' }): Promise<SdkAdapter> {
  let release: SdkRelease;
  try {
    release = locate(location);
  } catch (error) {
    return Promise.reject(error);
  }
  let adapter = loaded.get(release.root);
  if (!adapter) {
    adapter = adapterFor(release);
    loaded.set(release.root, adapter);
    // A failed load is not kept: installing the package and asking again must work.
    adapter.catch(() => loaded.delete(release.root));
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
  if (/^2\./.test(version)) {
    throw new SdkNotInstalledError(`SDK ${version}: ${SDK_PACKAGE} has no 2.x releases, and the benchmarks measure the 1.x SDK's own modules; run the 2.x pair with mcp-sim check --sdk ${version}`);
  }
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

function locate(location: SdkLocation): SdkRelease {
  switch (location.kind) {
    case 'installed':
      return defaultRelease();
    case 'package': {
      const pkg = findPackage(location.name, import.meta.url);
      if (!pkg) throw new SdkNotInstalledError(`mcp-sim: package "${location.name}" is not installed next to mcp-sim.`);
      return v1Release(pkg);
    }
    case 'folder': {
      const release = releaseInFolder(location.path);
      if (!release) throw new SdkNotInstalledError(`mcp-sim: no ${SDK_PACKAGE} in folder ${resolve(location.path)}: ${RELEASE_FOLDER_HINT}.`);
      return release;
    }
  }
}

/** Imports the release and builds the adapter of its generation (1.x: the `sdk` package; 2.x: the client + server pair). */
async function adapterFor(release: SdkRelease): Promise<SdkAdapter> {
  const identity = { name: release.name, version: release.version, root: release.root };
  const cannotLoad = (error: unknown): never => {
    throw new Error(`mcp-sim: cannot load ${release.name}@${release.version} from ${release.root}: ${messageOf(error)}`, { cause: error });
  };
  if (release.generation === 2) {
    if (!/^2\./.test(release.version)) throw new Error(`mcp-sim: no adapter for ${release.name}@${release.version} (in ${release.root}); it supports 2.x of this pair.`);
    return createV2Adapter(identity, await importV2Modules(release).catch(cannotLoad));
  }
  if (!/^1\./.test(release.version)) throw new Error(`mcp-sim: no adapter for ${release.name}@${release.version} (in ${release.root}); it supports 1.x.`);
  const modules = await importV1Modules((subpath) => moduleUrl(release.sdk, subpath)).catch(cannotLoad);
  return createV1Adapter(identity, modules);
}
