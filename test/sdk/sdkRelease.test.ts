import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { installedRelease, packagesOf, sdkFolderOf, SdkChoiceError, type NpmRunner } from '../../src/sdk/install.ts';
import { ENV_SDK, installedSdk, loadSdk, loadSdkVersion, SdkNotInstalledError } from '../../src/sdk/load.ts';
import { releaseInFolder, V2_CLIENT_PACKAGE, V2_SERVER_PACKAGE } from '../../src/sdk/sdkRelease.ts';
import { runMain } from '../cli/runMain.ts';

const scratch = mkdtempSync(join(tmpdir(), 'mcp-sim-release-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Writes a bare package.json of `name@version` under `project/node_modules/<name>`. */
function fakePackage(project: string, name: string, version: string): void {
  const dir = join(project, 'node_modules', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version }));
}

const V1 = realpathSync(resolve('node_modules/@modelcontextprotocol/sdk'));
const PAIR = realpathSync(resolve('node_modules/@modelcontextprotocol'));

describe('releaseInFolder: which generation a folder holds', () => {
  it('should tell the 1.x package from the 2.x pair', () => {
    expect(releaseInFolder(V1)).toMatchObject({ generation: 1, name: '@modelcontextprotocol/sdk', root: V1 });
    for (const path of [PAIR, join(PAIR, 'server'), join(PAIR, 'client')]) {
      expect(releaseInFolder(path)).toMatchObject({ generation: 2, name: V2_SERVER_PACKAGE, root: PAIR });
    }
    const project = join(scratch, 'v2-project');
    fakePackage(project, V2_CLIENT_PACKAGE, '2.1.0');
    fakePackage(project, V2_SERVER_PACKAGE, '2.1.0');
    expect(releaseInFolder(project)).toMatchObject({ generation: 2, version: '2.1.0', root: realpathSync(join(project, 'node_modules', '@modelcontextprotocol')) });
  });

  it('should find nothing in a folder holding neither, nor one package of the pair alone', () => {
    const project = join(scratch, 'half-pair');
    fakePackage(project, V2_SERVER_PACKAGE, '2.1.0');
    expect(releaseInFolder(project)).toBeUndefined();
    expect(releaseInFolder(join(project, 'node_modules', V2_SERVER_PACKAGE))).toBeUndefined();
    expect(releaseInFolder(scratch)).toBeUndefined();
  });

  it('should refuse, in one line, a pair of two releases and a project holding both generations', () => {
    const mixed = join(scratch, 'mixed-pair');
    fakePackage(mixed, V2_CLIENT_PACKAGE, '2.3.0');
    fakePackage(mixed, V2_SERVER_PACKAGE, '2.4.0');
    expect(() => releaseInFolder(mixed)).toThrow(/holds @modelcontextprotocol\/client@2\.3\.0 and @modelcontextprotocol\/server@2\.4\.0; .*one version$/);
    // The mcp-sim project itself holds 1.32.2 and the 2.x pair: which one is meant must be said.
    const both = (() => {
      try {
        releaseInFolder('.');
      } catch (error) {
        return error as Error;
      }
    })();
    expect(both).toBeInstanceOf(SdkNotInstalledError);
    expect(both!.message).not.toContain('\n');
    expect(both!.message).toContain(`name one, ${V1} for 1.x or ${PAIR} for 2.x`);
  });

  it('should give one line from loadSdk and --sdk for a folder holding neither or both', async () => {
    const empty = join(scratch, 'empty');
    mkdirSync(empty, { recursive: true });
    const error = (await loadSdk({ kind: 'folder', path: empty }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(SdkNotInstalledError);
    expect(error.message).not.toContain('\n');
    expect(error.message).toMatch(/no @modelcontextprotocol\/sdk in folder .*the 2\.x pair @modelcontextprotocol\/client \+ @modelcontextprotocol\/server/);
    await expect(sdkFolderOf({ kind: 'folder', path: resolve('.') })).rejects.toThrow(SdkChoiceError);
    await expect(sdkFolderOf({ kind: 'folder', path: resolve('.') })).rejects.toThrow(/^--sdk .*: .* holds both @modelcontextprotocol\/sdk@/);
    expect(await sdkFolderOf({ kind: 'folder', path: PAIR })).toBe(PAIR);
  });

  it('should tell the benchmarks, which measure 1.x modules, in one line that a 2.x version is not theirs', async () => {
    await expect(loadSdkVersion('2.4.0')).rejects.toThrow(/^SDK 2\.4\.0: @modelcontextprotocol\/sdk has no 2\.x releases, .*mcp-sim check --sdk 2\.4\.0$/);
  });

  it('should name the pair by its server package in installedSdk() when MCP_SIM_SDK points at it', () => {
    const before = process.env[ENV_SDK];
    process.env[ENV_SDK] = PAIR;
    try {
      expect(installedSdk()).toEqual({ name: V2_SERVER_PACKAGE, version: releaseInFolder(PAIR)!.version });
    } finally {
      if (before === undefined) delete process.env[ENV_SDK];
      else process.env[ENV_SDK] = before;
    }
  });
});

describe('--sdk 2.x.y: the client + server pair of that release', () => {
  it('should install both packages of a 2.x version, and only the SDK package of a 1.x one', async () => {
    expect(packagesOf('2.4.0')).toEqual([V2_CLIENT_PACKAGE, V2_SERVER_PACKAGE]);
    expect(packagesOf('1.32.2')).toEqual(['@modelcontextprotocol/sdk']);
    const calls: string[][] = [];
    // An npm that "installs" by writing each named package's manifest: no network in tests.
    const npm: NpmRunner = async (args, cwd) => {
      calls.push([...args]);
      for (const spec of args.filter((a) => a.startsWith('@'))) fakePackage(cwd, spec.slice(0, spec.lastIndexOf('@')), spec.slice(spec.lastIndexOf('@') + 1));
      return { code: 0, output: '' };
    };
    const cache = join(scratch, 'cache');
    const folder = await installedRelease('2.4.0', { cacheDir: cache, npm });
    expect(calls).toEqual([['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', '@modelcontextprotocol/client@2.4.0', '@modelcontextprotocol/server@2.4.0']]);
    expect(releaseInFolder(folder)).toMatchObject({ generation: 2, version: '2.4.0' });
    await installedRelease('2.4.0', { cacheDir: cache, npm });
    expect(calls).toHaveLength(1);
  });

  it('check --sdk <the pair> runs it, names it, and its replay commands carry the name and the folder', async () => {
    const run = await runMain(['check', '--sdk', PAIR, '--runs', '40', '--no-shrink', '--profiles', 'memory', '--all-findings']);
    const version = releaseInFolder(PAIR)!.version;
    expect(run.lines).toContain(`  sdk           ${V2_SERVER_PACKAGE}@${version}`);
    expect([0, 1]).toContain(run.code);
    const printed = run.lines.filter((l) => l.includes('replay the original case: npx mcp-sim replay'));
    expect(printed.length).toBeGreaterThan(0);
    for (const line of printed) {
      expect(line).toContain(`--made-with mcp-sim@`);
      expect(line).toContain(`,${V2_SERVER_PACKAGE}@${version} `);
      expect(line.endsWith(` --sdk ${PAIR}`), line).toBe(true);
    }
    // The printed command replays on the pair and reproduces its finding.
    const args = printed[0]!.slice(printed[0]!.indexOf('npx mcp-sim ') + 'npx mcp-sim '.length).split(' ');
    const again = await runMain(args);
    expect([0, 1], again.stdout + again.stderr).toContain(again.code);
    expect(again.lines.at(-1)).toMatch(/^reproduced: /);
  });
});
