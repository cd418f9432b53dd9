import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { messageOf } from '../util/errors.ts';
import { ENV_CACHE } from './envNames.ts';
import { loadSdk } from './load.ts';
import type { SdkAdapter } from './SdkAdapter.ts';
import { RELEASE_FOLDER_HINT, releaseInFolder, SDK_PACKAGE, V2_CLIENT_PACKAGE, V2_SERVER_PACKAGE } from './sdkRelease.ts';

/**
 * `--sdk VERSION|PATH`: which SDK release a command runs. A version is installed with npm into a
 * cache folder of mcp-sim (one folder per version, reused), never into the user's project; a
 * path names a copy already on disk. Installing is the only thing that may use the network, and
 * only the npm registry. `@modelcontextprotocol/sdk` has no 2.x releases, so a 2.x version
 * unambiguously names the 2.x pair (`@modelcontextprotocol/client` + `/server` of that version).
 */

/** The packages that make release `version`: the 1.x SDK, or the 2.x client and server pair. */
export function packagesOf(version: string): readonly string[] {
  return /^2\./.test(version) ? [V2_CLIENT_PACKAGE, V2_SERVER_PACKAGE] : [SDK_PACKAGE];
}

export { ENV_CACHE };

/** `node_modules/.cache/mcp-sim/sdk` of the mcp-sim package itself, unless `MCP_SIM_CACHE` says otherwise. */
export function sdkCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env[ENV_CACHE] || join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'node_modules', '.cache', 'mcp-sim');
  return join(resolve(base), 'sdk');
}

/** What `--sdk` names: the installed release, a version to install, or a folder. */
export type SdkChoice =
  | { readonly kind: 'installed' }
  | { readonly kind: 'version'; readonly version: string }
  | { readonly kind: 'folder'; readonly path: string };

const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/** Why `--sdk` cannot be used; the message is one line that says what to do. Exit status 2. */
export class SdkChoiceError extends Error {
  override name = 'SdkChoiceError';
}

/** Reads `--sdk`: `installed`, an exact version (`1.20.0`), or a path (anything with a `/`, or an existing folder). */
export function parseSdkChoice(arg: string): SdkChoice {
  const value = arg.trim();
  if (value === '') throw new SdkChoiceError('--sdk needs a value: an exact version such as 1.20.0, a folder with the SDK, or installed');
  if (value === 'installed') return { kind: 'installed' };
  if (VERSION.test(value)) return { kind: 'version', version: value };
  if (value.includes('/') || value.includes('\\') || existsSync(value)) return { kind: 'folder', path: resolve(value) };
  throw new SdkChoiceError(
    `--sdk ${value}: not an exact version (such as 1.20.0; ranges and tags are refused, so a run names one release) and no such folder`,
  );
}

/** How npm is run: replaced in tests, so that no test needs the network. */
export type NpmRunner = (args: readonly string[], cwd: string) => Promise<{ readonly code: number; readonly output: string }>;

const realNpm: NpmRunner = (args, cwd) =>
  new Promise((done) => {
    const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', (error) => done({ code: 127, output: `${output}\n${error.message}` }));
    child.on('close', (code) => done({ code: code ?? 1, output }));
  });

/** The folder holding release `version`, installing it first when the cache lacks it. */
export async function installedRelease(
  version: string,
  options: { readonly cacheDir?: string; readonly npm?: NpmRunner; readonly onInstall?: (message: string) => void } = {},
): Promise<string> {
  const folder = join(options.cacheDir ?? sdkCacheDir(), version);
  const have = cachedRelease(folder);
  if (have?.version === version) return folder;
  const fresh = !existsSync(folder);
  mkdirSync(folder, { recursive: true });
  // A package.json of its own: npm installs here, not into a project it finds above the cache.
  const manifest = join(folder, 'package.json');
  if (!existsSync(manifest)) writeFileSync(manifest, JSON.stringify({ name: `mcp-sim-sdk-${version}`, private: true }, null, 2) + '\n');
  const specs = packagesOf(version).map((name) => `${name}@${version}`);
  options.onInstall?.(`installing ${specs.join(' ')} into ${folder} (npm)…`);
  const npm = options.npm ?? realNpm;
  const { code, output } = await npm(['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', ...specs], folder);
  if (code !== 0) {
    // Nothing half-made stays behind to be mistaken for a release later.
    if (fresh) rmSync(folder, { recursive: true, force: true });
    throw new SdkChoiceError(installFailure(version, output));
  }
  const installed = cachedRelease(folder);
  if (installed?.version !== version) {
    throw new SdkChoiceError(`--sdk ${version}: npm finished, yet ${folder} holds ${installed ? `version ${installed.version}` : 'no SDK'}; remove that folder and try again`);
  }
  return folder;
}

/** The release a cache folder holds, or `undefined` (also when it is half made: one package of a pair, or of two releases). */
function cachedRelease(folder: string): { readonly version: string } | undefined {
  try {
    return releaseInFolder(folder);
  } catch {
    return undefined;
  }
}

/** One line from npm's output: no such release, no registry, or npm's own last words. */
export function installFailure(version: string, output: string): string {
  if (/E404|ETARGET|No matching version|notarget/i.test(output)) {
    const name = packagesOf(version).at(-1)!;
    return `--sdk ${version}: the npm registry has no release ${version} of ${name} (see npm view ${name} versions)`;
  }
  if (/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ECONNRESET|network|offline/i.test(output)) {
    return `--sdk ${version}: cannot reach the npm registry to install it (offline?); install it once with network, or give --sdk a folder that holds it`;
  }
  const last = output.trim().split('\n').filter(Boolean).at(-1) ?? `npm exited with an error`;
  return `--sdk ${version}: npm could not install it: ${last}`;
}

/** The folder of the release `choice` names (`undefined`: the installed one), installing a version when needed. */
export async function sdkFolderOf(choice: SdkChoice, options: Parameters<typeof installedRelease>[1] = {}): Promise<string | undefined> {
  switch (choice.kind) {
    case 'installed':
      return undefined;
    case 'version':
      return installedRelease(choice.version, options);
    case 'folder': {
      if (!folderRelease(choice.path)) throw new SdkChoiceError(`--sdk ${choice.path}: no ${SDK_PACKAGE} there; ${RELEASE_FOLDER_HINT}`);
      return choice.path;
    }
  }
}

/** The release in `path` for `--sdk`: a folder holding both generations, or a mixed pair, is one `--sdk` line. */
function folderRelease(path: string): ReturnType<typeof releaseInFolder> {
  try {
    return releaseInFolder(path);
  } catch (error) {
    throw new SdkChoiceError(`--sdk ${path}: ${messageOf(error).replace(/^mcp-sim: /, '')}`);
  }
}

/** The release `choice` names, loaded (a version installed first when the cache lacks it): what every `--sdk` runs. */
export async function loadChosenSdk(choice: SdkChoice, options: Parameters<typeof installedRelease>[1] = {}): Promise<SdkAdapter> {
  const folder = await sdkFolderOf(choice, options);
  return loadSdk(folder === undefined ? { kind: 'installed' } : { kind: 'folder', path: folder });
}

/** Orders `x.y.z` versions numerically (1.9.0 before 1.10.0); prerelease tags are not compared. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.split('-')[0]!.split('.').map(Number);
  const [pa, pb] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

/**
 * The published releases of the SDK, oldest first, prereleases left out (`npm view … versions`):
 * the 1.x line of `@modelcontextprotocol/sdk`, then the 2.x line of `@modelcontextprotocol/server`
 * (the pair's name), what `bisect` searches between two releases. Needs the npm registry; one
 * line when it cannot.
 */
export async function publishedReleases(options: { readonly npm?: NpmRunner; readonly cwd?: string } = {}): Promise<string[]> {
  const major = (v: string) => Number(v.split('.')[0]);
  const [v1, v2] = await Promise.all([SDK_PACKAGE, V2_SERVER_PACKAGE].map((name) => publishedVersions(name, options)));
  return [...v1!.filter((v) => major(v) < 2), ...v2!.filter((v) => major(v) >= 2)].sort(compareVersions);
}

async function publishedVersions(name: string, options: { readonly npm?: NpmRunner; readonly cwd?: string }): Promise<string[]> {
  const { code, output } = await (options.npm ?? realNpm)(['view', name, 'versions', '--json'], options.cwd ?? process.cwd());
  let versions: unknown;
  try {
    versions = code === 0 ? JSON.parse(output) : undefined;
  } catch {
    versions = undefined;
  }
  if (!Array.isArray(versions)) {
    const last = output.trim().split('\n').filter(Boolean).at(-1) ?? `npm exited with code ${code}`;
    throw new SdkChoiceError(`cannot list the releases of ${name} (npm view ${name} versions): ${last}; give the list with --releases`);
  }
  return versions.filter((v): v is string => typeof v === 'string' && /^\d+\.\d+\.\d+$/.test(v)).sort(compareVersions);
}
