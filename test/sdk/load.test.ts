import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSdk, installCommand, installedSdk, loadSdk, loadSdkVersion, SDK_PACKAGE, SdkNotInstalledError } from '../../src/sdk/load.ts';
import { SdkCopies } from './copies.ts';

/** The installed SDK's package.json, read straight from disk. */
function installedPackageJson(): { name: string; version: string } {
  const file = createRequire(import.meta.url).resolve(`${SDK_PACKAGE}/types.js`);
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version: string };
      if (pkg.name) return pkg as { name: string; version: string };
    } catch {
      // no package.json here
    }
  }
}

const copies = new SdkCopies();
afterAll(() => copies.remove());

describe('loadSdk: the installed SDK', () => {
  it('should load the SDK installed next to mcp-sim and name its version', async () => {
    const sdk = await defaultSdk();
    const pkg = installedPackageJson();
    expect(sdk.name).toBe(SDK_PACKAGE);
    expect(sdk.version).toBe(pkg.version);
    expect(installedSdk()).toEqual({ name: sdk.name, version: sdk.version });
    expect(JSON.parse(readFileSync(join(sdk.root, 'package.json'), 'utf8'))).toMatchObject({ name: SDK_PACKAGE, version: pkg.version });
  });

  it('should load each package folder once, whatever location names it', async () => {
    const sdk = await defaultSdk();
    expect(await defaultSdk()).toBe(sdk);
    expect(await loadSdk()).toBe(sdk);
    expect(await loadSdk({ kind: 'package', name: SDK_PACKAGE })).toBe(sdk);
    expect(await loadSdk({ kind: 'folder', path: sdk.root })).toBe(sdk);
    expect(await loadSdkVersion('installed')).toBe(sdk);
    expect(await loadSdkVersion(sdk.version)).toBe(sdk);
  });
});

describe('loadSdk: other locations', () => {
  it('should load a copy in another folder as a separate SDK', async () => {
    const installed = await defaultSdk();
    const copy = await loadSdk({ kind: 'folder', path: copies.copy('separate') });
    expect(copy).not.toBe(installed);
    expect(copy.version).toBe(installed.version);
    expect(copy.root).not.toBe(installed.root);
    expect(copy.modules!.types.McpError).not.toBe(installed.modules!.types.McpError);
  });

  it('should say how to install a missing alias', async () => {
    const error = await loadSdkVersion('0.0.1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkNotInstalledError);
    expect((error as Error).message).toContain('package "sdk-0.0.1" not found');
    expect((error as Error).message).toContain(installCommand('0.0.1'));
    await expect(loadSdk({ kind: 'package', name: 'sdk-0.0.1' })).rejects.toThrow(/package "sdk-0\.0\.1" is not installed next to mcp-sim/);
  });

  it('should say what a folder without the SDK lacks', async () => {
    const dir = copies.empty('no-sdk');
    const error = await loadSdk({ kind: 'folder', path: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkNotInstalledError);
    expect((error as Error).message).toContain(`no ${SDK_PACKAGE} in folder ${dir}`);
    expect((error as Error).message).toContain(`node_modules/${SDK_PACKAGE}`);
  });

  it('should refuse a major version it has no adapter for', async () => {
    const dir = copies.empty('sdk-2');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: SDK_PACKAGE, version: '2.0.0' }));
    await expect(loadSdk({ kind: 'folder', path: dir })).rejects.toThrow(/no adapter for @modelcontextprotocol\/sdk@2\.0\.0 .*supports 1\.x/);
  });

  it('should load a release without the Streamable HTTP server module and say it lacks it', async () => {
    const sdk = await loadSdk({ kind: 'folder', path: copies.copy('no-http', ['dist/esm/server/webStandardStreamableHttp.js']) });
    expect(sdk.capabilities).toEqual({ streamableHttpServer: false, streamableHttpClient: true, elicitation: true, handlerRequestId: true, requestIdSource: 'context', relatedMessages: true, progressResetsTimeout: 'when-asked', resetTimeoutOnProgress: true, maxTotalTimeout: true });
    expect(sdk.http).toBeUndefined();
    expect(sdk.modules!.streamableHttpServer).toBeUndefined();
  });
});
