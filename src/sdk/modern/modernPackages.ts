import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { packageInFolder, type SdkPackage } from '../sdkPackage.ts';

/** The two 2.x packages the modern era needs, by name. */
export const MODERN_CLIENT_PACKAGE = '@modelcontextprotocol/client';
export const MODERN_SERVER_PACKAGE = '@modelcontextprotocol/server';

/** The client and server packages in `folder` (the project holding them, or either package's own folder's project). */
export interface ModernPackages {
  readonly client: SdkPackage;
  readonly server: SdkPackage;
}

/**
 * The 2.x client and server packages of a project folder (`node_modules/@modelcontextprotocol/{client,server}`),
 * or `undefined` when either is missing or not a 2.x release.
 */
export function modernPackagesIn(folder: string): ModernPackages | undefined {
  const client = packageInFolder(folder, MODERN_CLIENT_PACKAGE);
  const server = packageInFolder(folder, MODERN_SERVER_PACKAGE);
  if (!client || !server || !/^2\./.test(client.version) || !/^2\./.test(server.version)) return undefined;
  return { client, server };
}

/** The file URL of a package's main ESM entry (`exports['.']`, `import` condition). */
export function entryUrl(pkg: SdkPackage): string {
  const dot = (pkg.exports as Record<string, unknown> | undefined)?.['.'];
  const target = pickImport(dot);
  if (target === undefined) throw new Error(`${pkg.name}@${pkg.version} (in ${pkg.root}) exports no ESM entry`);
  const file = join(pkg.root, target);
  if (!existsSync(file)) throw new Error(`${pkg.name}@${pkg.version}: its entry ${target} is missing`);
  return pathToFileURL(file).href;
}

function pickImport(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null) return undefined;
  const map = value as Record<string, unknown>;
  return pickImport(map['import']) ?? pickImport(map['default']);
}
