import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CommandSpec } from '../../target/index.ts';

/** The SDK test beds of `testbeds/<language>/` (testbeds/PROGRAM.md), in the order they are built. */
export const SDK_TESTBED_LANGUAGES = ['typescript', 'python', 'go', 'rust', 'java'] as const;
export type SdkTestbedLanguage = (typeof SDK_TESTBED_LANGUAGES)[number];

/** `testbeds/<language>/testbed.json`, as PROGRAM.md defines it. */
export interface SdkTestbedManifest {
  readonly language: SdkTestbedLanguage;
  readonly sdk: { readonly name: string; readonly version: string };
  /** How a person installs it (the command `npm run testbeds:sdk` runs for this language). */
  readonly install: readonly string[];
  /** A file that exists once `install` has succeeded (placeholders allowed). */
  readonly ready: string;
  readonly stdio: readonly string[];
  readonly http?: { readonly start: readonly string[]; readonly url: string; readonly stateless?: boolean; readonly json?: boolean };
  /** Transports and modes this test bed offers now (`stdio`, `http`, `http-stateless`, `http-json`). */
  readonly transports: readonly string[];
  /** What the SDK lacks, or the test bed does not do yet, each in one sentence. */
  readonly lacks: readonly string[];
}

/** An installed test bed: its manifest and its stdio command with `{cache}` and `{dir}` filled. */
export interface SdkTestbed {
  readonly language: SdkTestbedLanguage;
  readonly manifest: SdkTestbedManifest;
  readonly stdio: CommandSpec;
}

/** A test bed that cannot run here, and why (never skipped silently: reports print `reason`). */
export interface SdkTestbedSkip {
  readonly language: SdkTestbedLanguage;
  readonly skipped: string;
}

export interface SdkTestbedOptions {
  /** The repository root (it holds `testbeds/`). @default the current directory */
  readonly root?: string;
  /** The cache root; each test bed lives in `<cache>/sdk-<language>`. @default $MCP_SIM_TESTBED_CACHE, else `<root>/node_modules/.cache/mcp-sim/testbeds` */
  readonly cache?: string;
}

/** The cache root the install scripts use (`MCP_SIM_TESTBED_CACHE`), so the two never disagree. */
export function sdkTestbedCache(options: SdkTestbedOptions = {}): string {
  const root = resolve(options.root ?? '.');
  return resolve(options.cache ?? process.env.MCP_SIM_TESTBED_CACHE ?? join(root, 'node_modules/.cache/mcp-sim/testbeds'));
}

const fill = (arg: string, cache: string, dir: string) => arg.replaceAll('{cache}', cache).replaceAll('{dir}', dir);

/**
 * Reads `testbeds/<language>/testbed.json` and tells whether that test bed is installed: its
 * stdio command, or the reason it is skipped (no manifest yet, or not installed: run its install).
 */
export function sdkTestbed(language: SdkTestbedLanguage, options: SdkTestbedOptions = {}): SdkTestbed | SdkTestbedSkip {
  const dir = resolve(options.root ?? '.', 'testbeds', language);
  const file = join(dir, 'testbed.json');
  if (!existsSync(file)) return { language, skipped: `no test bed yet: testbeds/${language}/testbed.json does not exist (issue 22)` };
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as SdkTestbedManifest;
  const cache = join(sdkTestbedCache(options), `sdk-${language}`);
  if (!existsSync(fill(manifest.ready, cache, dir))) {
    return { language, skipped: `not installed: run \`${manifest.install.join(' ')}\` (or npm run testbeds:sdk)` };
  }
  return { language, manifest, stdio: { command: manifest.stdio.map((a) => fill(a, cache, dir)) } };
}
