import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { installFailure, installedRelease, parseSdkChoice, sdkFolderOf, SdkChoiceError, type NpmRunner } from '../../src/sdk/install.ts';
import { ENV_SDK } from '../../src/sdk/load.ts';
import { runMain } from '../cli/runMain.ts';

const cache = mkdtempSync(join(tmpdir(), 'mcp-sim-sdk-cache-'));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

/** An npm that "installs" by writing the package's manifest, or fails with `output`: no network in tests. */
function fakeNpm(result: { readonly fail?: string; readonly version?: string } = {}): NpmRunner & { calls: string[][] } {
  const calls: string[][] = [];
  const npm = (async (args: readonly string[], cwd: string) => {
    calls.push([...args]);
    if (result.fail !== undefined) return { code: 1, output: result.fail };
    const spec = args.at(-1)!;
    const version = result.version ?? spec.slice(spec.lastIndexOf('@') + 1);
    const dir = join(cwd, 'node_modules', '@modelcontextprotocol', 'sdk');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: '@modelcontextprotocol/sdk', version }));
    return { code: 0, output: '' };
  }) as NpmRunner & { calls: string[][] };
  npm.calls = calls;
  return npm;
}

describe('--sdk VERSION|PATH', () => {
  it('reads an exact version, a folder, or installed; refuses ranges, tags and empty values with one line', () => {
    expect(parseSdkChoice('1.20.0')).toEqual({ kind: 'version', version: '1.20.0' });
    expect(parseSdkChoice('2.0.0-beta.1')).toEqual({ kind: 'version', version: '2.0.0-beta.1' });
    expect(parseSdkChoice('installed')).toEqual({ kind: 'installed' });
    expect(parseSdkChoice('./some/copy')).toEqual({ kind: 'folder', path: resolve('./some/copy') });
    for (const bad of ['latest', '^1.20.0', '1.20', '']) expect(() => parseSdkChoice(bad)).toThrow(SdkChoiceError);
  });

  it('installs a version once into the cache folder of that version (never the project), then reuses it', async () => {
    const npm = fakeNpm();
    const messages: string[] = [];
    const folder = await installedRelease('1.20.0', { cacheDir: cache, npm, onInstall: (m) => messages.push(m) });
    expect(folder).toBe(join(cache, '1.20.0'));
    expect(npm.calls).toEqual([['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', '@modelcontextprotocol/sdk@1.20.0']]);
    expect(messages).toEqual([`installing @modelcontextprotocol/sdk@1.20.0 into ${folder} (npm)…`]);
    // The folder has a package.json of its own, so npm does not climb to a project above it.
    expect(existsSync(join(folder, 'package.json'))).toBe(true);
    await installedRelease('1.20.0', { cacheDir: cache, npm });
    expect(npm.calls).toHaveLength(1);
  });

  it('says in one line when the registry has no such release or cannot be reached, and leaves nothing behind', async () => {
    const missing = installedRelease('9.9.9', { cacheDir: cache, npm: fakeNpm({ fail: 'npm error code ETARGET\nnpm error notarget No matching version found' }) });
    await expect(missing).rejects.toThrow(/^--sdk 9\.9\.9: the npm registry has no release 9\.9\.9 of @modelcontextprotocol\/sdk/);
    expect(existsSync(join(cache, '9.9.9'))).toBe(false);
    expect(installFailure('1.2.3', 'npm error code ENOTFOUND\nnpm error network request failed')).toMatch(/cannot reach the npm registry to install it \(offline\?\)/);
    expect(installFailure('1.2.3', 'something odd\nnpm error it broke')).toBe('--sdk 1.2.3: npm could not install it: npm error it broke');
    await expect(installedRelease('1.21.0', { cacheDir: cache, npm: fakeNpm({ version: '1.20.9' }) })).rejects.toThrow(/holds version 1\.20\.9/);
  });

  it('refuses a folder without the SDK, and names no folder for installed', async () => {
    await expect(sdkFolderOf({ kind: 'folder', path: cache })).rejects.toThrow(/no @modelcontextprotocol\/sdk there/);
    expect(await sdkFolderOf({ kind: 'installed' })).toBeUndefined();
  });

  it('check sdk@PATH runs that copy and names it; a bad release exits 2 with one line; the variable is given back', async () => {
    const before = process.env[ENV_SDK];
    const run = await runMain(['check', 'sdk@node_modules/@modelcontextprotocol/sdk', '--runs', '12', '--no-shrink', '--all-findings']);
    expect(run.lines).toContain('  sdk           @modelcontextprotocol/sdk@1.32.2');
    expect([0, 1]).toContain(run.code);
    expect(process.env[ENV_SDK]).toBe(before);
    // Every replay command it prints repeats --sdk with the folder, and runs that copy again.
    const folder = resolve('node_modules/@modelcontextprotocol/sdk');
    const printed = run.lines.filter((l) => l.includes('replay the original case: npx mcp-sim replay'));
    expect(printed.length).toBeGreaterThan(0);
    for (const line of printed) expect(line.endsWith(` --sdk ${folder}`), line).toBe(true);
    const args = printed[0]!.slice(printed[0]!.indexOf('npx mcp-sim ') + 'npx mcp-sim '.length).split(' ');
    const again = await runMain(args);
    expect([0, 1], again.stdout + again.stderr).toContain(again.code);
    expect(again.lines.at(-1)).toMatch(/^reproduced: /);
    const bad = await runMain(['check', 'sdk@latest']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^mcp-sim check sdk@latest: not an exact version/);
  });
});
