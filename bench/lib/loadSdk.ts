/**
 * The single door through which every suite reaches the MCP SDK.
 *
 * Why: `--sdk VERSION` and `--compare A,B` benchmark releases installed side by side under
 * an npm alias (`sdk-1.20.0` -> `@modelcontextprotocol/sdk@1.20.0`). Only a dynamic import
 * through one loader lets two versions live in one process without the suites knowing.
 * Types come from the installed SDK; other versions are assumed to have the same shape
 * (the low-level Client/Server API is stable across 1.x), and optional modules are probed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as ClientModule from '@modelcontextprotocol/sdk/client/index.js';
import type * as ServerModule from '@modelcontextprotocol/sdk/server/index.js';
import type * as InMemoryModule from '@modelcontextprotocol/sdk/inMemory.js';
import type * as TypesModule from '@modelcontextprotocol/sdk/types.js';
import type * as HttpModule from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

export const INSTALLED_PACKAGE = '@modelcontextprotocol/sdk';

export interface Sdk {
  /** The version read from the loaded package's package.json. */
  version: string;
  /** The package name imported: `@modelcontextprotocol/sdk` or an alias like `sdk-1.20.0`. */
  packageName: string;
  /** Directory of the loaded package (its module root). */
  root: string;
  Client: typeof ClientModule.Client;
  Server: typeof ServerModule.Server;
  InMemoryTransport: typeof InMemoryModule.InMemoryTransport;
  types: typeof TypesModule;
  /** Absent in releases older than the Web-standard Streamable HTTP transport. */
  WebStandardStreamableHTTPServerTransport?: typeof HttpModule.WebStandardStreamableHTTPServerTransport;
}

/** Thrown when an aliased SDK release is not installed; its message says how to install it. */
export class SdkNotInstalledError extends Error {}

/** The npm alias package name used for a given SDK version. */
export function aliasFor(version: string): string {
  return `sdk-${version}`;
}

/** The exact command that installs `version` side by side with the project's SDK. */
export function installCommand(version: string): string {
  return `npm i ${aliasFor(version)}@npm:${INSTALLED_PACKAGE}@${version}`;
}

/** Walks up from a resolved module file to the directory holding the package's package.json. */
function packageRoot(resolvedFile: string): { root: string; version: string } {
  let dir = dirname(resolvedFile);
  for (;;) {
    const pj = join(dir, 'package.json');
    if (existsSync(pj)) {
      const parsed = JSON.parse(readFileSync(pj, 'utf8')) as { name?: string; version?: string };
      // dist/esm holds a {"type":"module"} stub without a name in some releases: skip it.
      if (parsed.name !== undefined && parsed.version !== undefined) return { root: dir, version: parsed.version };
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${resolvedFile}`);
    dir = up;
  }
}

function resolveOrNull(specifier: string): string | null {
  try {
    return import.meta.resolve(specifier);
  } catch {
    return null;
  }
}

/** The version of the SDK the project itself depends on. */
export function installedVersion(): string {
  const url = resolveOrNull(`${INSTALLED_PACKAGE}/types.js`);
  if (url === null) throw new Error(`${INSTALLED_PACKAGE} is not installed: run npm ci`);
  return packageRoot(fileURLToPath(url)).version;
}

/**
 * Loads an SDK release: `'installed'` (or the installed version number) is the project's own
 * dependency; any other version is imported from the alias package `sdk-VERSION`.
 */
export async function loadSdk(version: string): Promise<Sdk> {
  const wantsInstalled = version === 'installed' || version === installedVersion();
  const packageName = wantsInstalled ? INSTALLED_PACKAGE : aliasFor(version);
  const typesUrl = resolveOrNull(`${packageName}/types.js`);
  if (typesUrl === null) {
    throw new SdkNotInstalledError(
      `SDK ${version} is not installed (package "${packageName}" not found).\n` +
        `Install it side by side with:\n\n  ${installCommand(version)}\n`,
    );
  }
  const { root, version: found } = packageRoot(fileURLToPath(typesUrl));
  if (!wantsInstalled && found !== version) {
    throw new SdkNotInstalledError(
      `package "${packageName}" holds SDK ${found}, not ${version}. Reinstall it with:\n\n  ${installCommand(version)}\n`,
    );
  }
  const [client, server, inMemory, types] = await Promise.all([
    import(`${packageName}/client/index.js`) as Promise<typeof ClientModule>,
    import(`${packageName}/server/index.js`) as Promise<typeof ServerModule>,
    import(`${packageName}/inMemory.js`) as Promise<typeof InMemoryModule>,
    import(`${packageName}/types.js`) as Promise<typeof TypesModule>,
  ]);
  let http: typeof HttpModule | undefined;
  if (resolveOrNull(`${packageName}/server/webStandardStreamableHttp.js`) !== null) {
    try {
      http = (await import(`${packageName}/server/webStandardStreamableHttp.js`)) as typeof HttpModule;
    } catch {
      http = undefined; // the "./*" export resolves even when the file is missing
    }
  }
  return {
    version: found,
    packageName,
    root,
    Client: client.Client,
    Server: server.Server,
    InMemoryTransport: inMemory.InMemoryTransport,
    types,
    WebStandardStreamableHTTPServerTransport: http?.WebStandardStreamableHTTPServerTransport,
  };
}
