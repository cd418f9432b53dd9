import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { SdkNotInstalledError } from './SdkNotInstalledError.ts';
import { packageInFolder, type SdkPackage } from './sdkPackage.ts';

/**
 * Which SDK release a folder holds, and of which generation: 1.x is one package
 * (`@modelcontextprotocol/sdk`), 2.x a pair of packages of one release
 * (`@modelcontextprotocol/client` + `@modelcontextprotocol/server`, each with its own bundled
 * copy of `Protocol`). The loader, the installer and the worker pool all ask this one place.
 */

/** The 1.x package. */
export const SDK_PACKAGE = '@modelcontextprotocol/sdk';
/** The 2.x client package: mcp-sim's `Client` endpoints. */
export const V2_CLIENT_PACKAGE = '@modelcontextprotocol/client';
/**
 * The 2.x server package: mcp-sim's `Server` endpoints, and the name a 2.x release goes by in
 * reports, baseline files and `--made-with` (the pair is one release, so one version names it).
 */
export const V2_SERVER_PACKAGE = '@modelcontextprotocol/server';

/** One SDK release on disk; `name@version` is how reports and baselines name it. */
export type SdkRelease = SdkV1Release | SdkV2Release;

export interface SdkV1Release {
  readonly generation: 1;
  readonly name: string;
  readonly version: string;
  /** The package's folder. */
  readonly root: string;
  readonly sdk: SdkPackage;
}

export interface SdkV2Release {
  readonly generation: 2;
  /** `@modelcontextprotocol/server`. */
  readonly name: string;
  readonly version: string;
  /** The `@modelcontextprotocol` scope folder holding both packages (a folder `releaseInFolder` finds them in again). */
  readonly root: string;
  readonly client: SdkPackage;
  readonly server: SdkPackage;
}

/** The 1.x release the package `pkg` is (an alias package keeps the real name in its package.json). */
export function v1Release(pkg: SdkPackage): SdkV1Release {
  return { generation: 1, name: pkg.name, version: pkg.version, root: pkg.root, sdk: pkg };
}

function packageJsonName(folder: string): string | undefined {
  const file = join(folder, 'package.json');
  if (!existsSync(file)) return undefined;
  return (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name;
}

/**
 * The `@modelcontextprotocol` scope folder of a 2.x pair that `path` names: the scope folder
 * itself, a project with the pair in its own `node_modules`, or one package of the pair (its
 * sibling is the other). `undefined` when none holds both packages.
 */
function v2ScopeFolder(path: string): string | undefined {
  const folder = resolve(path);
  const own = packageJsonName(folder);
  const candidates =
    own === V2_CLIENT_PACKAGE || own === V2_SERVER_PACKAGE ? [dirname(folder)] : [folder, join(folder, 'node_modules', '@modelcontextprotocol')];
  return candidates.find((scope) => packageJsonName(join(scope, 'client')) === V2_CLIENT_PACKAGE && packageJsonName(join(scope, 'server')) === V2_SERVER_PACKAGE);
}

/** The 2.x pair in `path` (see `v2ScopeFolder`); throws when its two packages are of different releases. */
function v2InFolder(path: string): SdkV2Release | undefined {
  const scope = v2ScopeFolder(path);
  if (scope === undefined) return undefined;
  const client = packageInFolder(join(scope, 'client'), V2_CLIENT_PACKAGE)!;
  const server = packageInFolder(join(scope, 'server'), V2_SERVER_PACKAGE)!;
  if (client.version !== server.version) {
    throw new SdkNotInstalledError(
      `mcp-sim: ${scope} holds ${V2_CLIENT_PACKAGE}@${client.version} and ${V2_SERVER_PACKAGE}@${server.version}; mcp-sim runs the client and server of one release: install both at one version`,
    );
  }
  return { generation: 2, name: V2_SERVER_PACKAGE, version: server.version, root: realpathSync(scope), client, server };
}

/**
 * The release in folder `path`: the 1.x package (its own folder, or a project with it in
 * `node_modules`) or the 2.x pair (see `v2ScopeFolder`). `undefined` when it holds neither;
 * a project holding both generations is refused, naming the folder of each, since guessing
 * would run a release nobody asked for.
 */
export function releaseInFolder(path: string): SdkRelease | undefined {
  const v1 = packageInFolder(path, SDK_PACKAGE);
  const v2 = v2InFolder(path);
  if (v1 && v2) {
    throw new SdkNotInstalledError(
      `mcp-sim: ${resolve(path)} holds both ${SDK_PACKAGE}@${v1.version} and the 2.x pair ${V2_SERVER_PACKAGE}@${v2.version}: ` +
        `name one, ${v1.root} for 1.x or ${v2.root} for 2.x`,
    );
  }
  return v1 ? v1Release(v1) : v2;
}

/** What a folder must hold, for messages: `<what> in folder <path>: give …`. */
export const RELEASE_FOLDER_HINT =
  `give the package's own folder or a project folder with node_modules/${SDK_PACKAGE} (1.x), ` +
  `or a folder holding the 2.x pair ${V2_CLIENT_PACKAGE} + ${V2_SERVER_PACKAGE} (their scope folder, either package, or a project with both in node_modules)`;
