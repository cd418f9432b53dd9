import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CommandSpec } from '../../real/index.ts';
import type { UrlSpec } from '../index.ts';

import { type HttpMode, type SdkTestbedLanguage, type SdkTestbedTransport, type TestbedLayer } from './languages.ts';

export { SDK_TESTBED_LANGUAGES, HTTP_MODES, TESTBED_LAYERS, type HttpMode, type SdkTestbedLanguage, type SdkTestbedTransport, type TestbedLayer } from './languages.ts';

/** One pinned release of the SDK (PROGRAM.md, "Releases"). */
export interface SdkTestbedRelease {
  readonly version: string;
  /** What this release lacks or does differently, beyond the manifest's `lacks`. */
  readonly lacks?: readonly string[];
  /** The HTTP modes this release offers, where they differ from the manifest's. */
  readonly modes?: readonly HttpMode[];
  /** The layers this release's interpreters build on, where fewer than the manifest's. */
  readonly layers?: readonly TestbedLayer[];
}

/** `testbeds/<language>/testbed.json`, as PROGRAM.md defines it. */
export interface SdkTestbedManifest {
  readonly language: SdkTestbedLanguage;
  /** The SDK, and the version a manifest without `releases` is pinned to. */
  readonly sdk: { readonly name: string; readonly version: string };
  /** The pinned releases, newest first; the first is the default. Absent: one release, `sdk.version`. */
  readonly releases?: readonly SdkTestbedRelease[];
  /** How a person installs it (the command `npm run testbeds:sdk` runs for this language). */
  readonly install: readonly string[];
  /** A file that exists once `install` has succeeded (placeholders allowed). */
  readonly ready: string;
  readonly stdio: readonly string[];
  readonly http?: { readonly start: readonly string[]; readonly url: string; readonly modes: readonly HttpMode[] };
  /** Transports and modes this test bed offers now (`stdio`, `http-<mode>`). */
  readonly transports: readonly string[];
  /** What the SDK lacks, or the test bed does not do yet, each in one sentence. */
  readonly lacks: readonly string[];
  /**
   * The interpreters (PROGRAM.md, "Layers"), by layer: the SDK API each is written on, in a few
   * words. Its commands take `{layer}`. Absent: one interpreter, the low layer's. A bed whose SDK
   * offers servers one public API names that one (Java's: `high` alone).
   */
  readonly layers?: { readonly [L in TestbedLayer]?: string };
  /** What each layer lacks or does differently, beyond the manifest's and the release's `lacks`. */
  readonly layerLacks?: { readonly [L in TestbedLayer]?: readonly string[] };
  /** The test-bed client (testbeds/CLIENT.md), where it is written. */
  readonly client?: SdkTestbedClientManifest;
}

/** `testbed.json`'s `client` section (testbeds/CLIENT.md). */
export interface SdkTestbedClientManifest {
  readonly command: readonly string[];
  readonly ready: string;
  readonly transports: readonly ('stdio' | 'http')[];
  /** The releases the client builds on. */
  readonly releases: readonly string[];
  /** The caller options it has (reset-on-progress, a maximum total); absent: none. */
  readonly options?: readonly ('resetTimeoutOnProgress' | 'maxTotalTimeout')[];
  readonly lacks: readonly string[];
}

/** An installed test-bed client of one release: its command with the placeholders filled. */
export interface SdkTestbedClient {
  readonly command: readonly string[];
  readonly transports: readonly ('stdio' | 'http')[];
  readonly options: readonly ('resetTimeoutOnProgress' | 'maxTotalTimeout')[];
  readonly lacks: readonly string[];
}

/** An installed test bed of one release and layer: its commands with `{cache}`, `{dir}`, `{version}` and `{layer}` filled. */
export interface SdkTestbed {
  readonly language: SdkTestbedLanguage;
  readonly manifest: SdkTestbedManifest;
  /** The SDK release this bed was built with. */
  readonly version: string;
  /** The interpreter its commands start. */
  readonly layer: TestbedLayer;
  /** The layers this release offers (`layer` one of them). */
  readonly layers: readonly TestbedLayer[];
  /** Whether `version` is one of the manifest's pinned releases (else it was resolved at install). */
  readonly pinned: boolean;
  readonly stdio: CommandSpec;
  /** The HTTP modes this release offers (empty: stdio only). */
  readonly modes: readonly HttpMode[];
  /** The manifest's `lacks`, this release's and this layer's. */
  readonly lacks: readonly string[];
  /** The URL target of one HTTP mode (`{port}` left for mcp-sim to fill), or undefined when the release lacks it. */
  http(mode: HttpMode): UrlSpec | undefined;
  /** The test-bed client of this release, or why there is none (not written, not built for this release, not installed). */
  readonly client: SdkTestbedClient | { readonly missing: string };
}

/** A test bed that cannot run here, and why (never skipped silently: reports print `reason`). */
export interface SdkTestbedSkip {
  readonly language: SdkTestbedLanguage;
  readonly skipped: string;
}

export interface SdkTestbedOptions {
  /** The repository root (it holds `testbeds/`). @default the current directory */
  readonly root?: string;
  /** The cache root; each release lives in `<cache>/sdk-<language>/<version>`. @default $MCP_SIM_TESTBED_CACHE, else `<root>/node_modules/.cache/mcp-sim/testbeds` */
  readonly cache?: string;
  /** The SDK release. @default the manifest's first release */
  readonly version?: string;
  /** The interpreter. @default the low one, or the only one of a bed without it (defaultTestbedLayer) */
  readonly layer?: TestbedLayer;
}

/** The cache root the install scripts use (`MCP_SIM_TESTBED_CACHE`), so the two never disagree. */
export function sdkTestbedCache(options: SdkTestbedOptions = {}): string {
  const root = resolve(options.root ?? '.');
  return resolve(options.cache ?? process.env.MCP_SIM_TESTBED_CACHE ?? join(root, 'node_modules/.cache/mcp-sim/testbeds'));
}

/** Reads `testbeds/<language>/testbed.json`, or undefined when that test bed is not written yet. */
export function sdkTestbedManifest(language: SdkTestbedLanguage, options: Pick<SdkTestbedOptions, 'root'> = {}): SdkTestbedManifest | undefined {
  const file = resolve(options.root ?? '.', 'testbeds', language, 'testbed.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SdkTestbedManifest) : undefined;
}

/** The manifest's releases, newest first (a manifest without `releases` has one: `sdk.version`). */
export function sdkTestbedReleases(manifest: SdkTestbedManifest): readonly SdkTestbedRelease[] {
  return manifest.releases ?? [{ version: manifest.sdk.version }];
}

/** Where one release is built: `<cache>/sdk-<language>/<version>`; a manifest without `releases` keeps its one build in `<cache>/sdk-<language>`. */
function releaseDir(manifest: SdkTestbedManifest, version: string, options: SdkTestbedOptions): string {
  const base = join(sdkTestbedCache(options), `sdk-${manifest.language}`);
  return manifest.releases ? join(base, version) : base;
}

const fill = (arg: string, cache: string, dir: string, version: string, layer: TestbedLayer = 'low') => arg.replaceAll('{cache}', cache).replaceAll('{dir}', dir).replaceAll('{version}', version).replaceAll('{layer}', layer);

/** The layers a release offers: the manifest's (low alone when it names none), narrowed by the release's own list. */
export function sdkTestbedLayers(manifest: SdkTestbedManifest, release: SdkTestbedRelease | undefined): readonly TestbedLayer[] {
  const all = manifest.layers === undefined ? (['low'] as const) : (Object.keys(manifest.layers) as TestbedLayer[]);
  return release?.layers === undefined ? all : all.filter((l) => release.layers!.includes(l));
}

/**
 * The layer a release runs when none is asked, and the layer of a case or baseline entry that
 * names none (written before beds had layers): the low one, or, on a bed without one, its first.
 */
export const defaultTestbedLayer = (layers: readonly TestbedLayer[]): TestbedLayer => (layers.includes('low') || layers.length === 0 ? 'low' : layers[0]!);

/**
 * Reads `testbeds/<language>/testbed.json` and tells whether that release's test bed is installed:
 * its commands, or the reason it is skipped (no manifest yet; a version the manifest cannot build;
 * not installed: run its install).
 */
export function sdkTestbed(language: SdkTestbedLanguage, options: SdkTestbedOptions = {}): SdkTestbed | SdkTestbedSkip {
  const dir = resolve(options.root ?? '.', 'testbeds', language);
  const manifest = sdkTestbedManifest(language, options);
  if (!manifest) return { language, skipped: `no test bed yet: testbeds/${language}/testbed.json does not exist (issue 22)` };
  const releases = sdkTestbedReleases(manifest);
  const version = options.version ?? releases[0]!.version;
  const release = releases.find((r) => r.version === version);
  if (!release && !manifest.releases) {
    return { language, skipped: `the ${language} test bed builds only ${manifest.sdk.name} ${manifest.sdk.version} (its testbed.json lists no other releases), not ${version}` };
  }
  const layers = sdkTestbedLayers(manifest, release);
  const layer = options.layer ?? defaultTestbedLayer(layers);
  if (!layers.includes(layer)) {
    return { language, skipped: `the ${language} test bed of ${manifest.sdk.name} ${version} has no ${layer} layer: it offers ${layers.join(', ')} (PROGRAM.md, "Layers")` };
  }
  const cache = releaseDir(manifest, version, options);
  // The default release is what the plain install builds; any other is named to it.
  const install = `${version === releases[0]!.version ? '' : `MCP_SIM_SDK_VERSION=${version} `}${manifest.install.join(' ')}`;
  if (!existsSync(fill(manifest.ready, cache, dir, version))) {
    return { language, skipped: `not installed: run \`${install}\` (or npm run testbeds:sdk)` };
  }
  const modes = (release?.modes ?? manifest.http?.modes ?? []).filter((m) => manifest.http?.modes.includes(m));
  const http = manifest.http;
  const c = manifest.client;
  const client: SdkTestbedClient | { missing: string } = !c
    ? { missing: `the ${language} test bed has no client yet (testbeds/CLIENT.md)` }
    : !c.releases.includes(version)
      ? { missing: `the ${language} test-bed client is built for ${c.releases.join(', ')}, not ${version}` }
      : !existsSync(fill(c.ready, cache, dir, version))
        ? { missing: `the ${language} test-bed client of ${version} is not installed: run \`${install}\`` }
        : { command: c.command.map((a) => fill(a, cache, dir, version)), transports: c.transports, options: c.options ?? [], lacks: c.lacks };
  return {
    language,
    manifest,
    version,
    layer,
    layers,
    pinned: release !== undefined,
    stdio: { command: manifest.stdio.map((a) => fill(a, cache, dir, version, layer)) },
    modes,
    lacks: [...manifest.lacks, ...(release?.lacks ?? []), ...(manifest.layerLacks?.[layer] ?? [])],
    client,
    http: (mode) =>
      http && modes.includes(mode)
        ? { url: http.url, start: { command: http.start.map((a) => fill(a, cache, dir, version, layer).replaceAll('{mode}', mode)) } }
        : undefined,
  };
}

/** What `installSdkTestbed` did: the install's exit code and its last line (`testbed sdk-<language>: ready (...)` when it worked). */
export interface SdkTestbedInstall {
  readonly code: number;
  readonly lastLine: string;
}

/**
 * Runs a test bed's install for one release (`MCP_SIM_SDK_VERSION`), streaming its output to
 * `onLine`: exit 0 ready, 3 missing toolchain, 4 a version the registry does not have, else failed.
 */
export async function installSdkTestbed(language: SdkTestbedLanguage, options: SdkTestbedOptions & { readonly onLine?: (line: string) => void } = {}): Promise<SdkTestbedInstall> {
  const manifest = sdkTestbedManifest(language, options);
  if (!manifest) return { code: 1, lastLine: `no test bed yet: testbeds/${language}/testbed.json does not exist` };
  const [program, ...args] = manifest.install;
  const env = { ...process.env, ...(options.version && { MCP_SIM_SDK_VERSION: options.version }), ...(options.cache && { MCP_SIM_TESTBED_CACHE: resolve(options.cache) }) };
  const child = spawn(program!, args, { cwd: resolve(options.root ?? '.'), env, stdio: ['ignore', 'pipe', 'pipe'] });
  let lastLine = '';
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      if (line.trim() === '') return;
      lastLine = line;
      options.onLine?.(line);
    });
  }
  const code = await new Promise<number>((resolveCode) => {
    child.once('error', (error) => {
      lastLine = `cannot run ${program}: ${error.message}`;
      resolveCode(1);
    });
    child.once('close', (status) => resolveCode(status ?? 1));
  });
  return { code, lastLine };
}
