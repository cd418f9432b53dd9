import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { installSdkTestbed, SDK_TESTBED_LANGUAGES, sdkTestbed, type SdkTestbedManifest } from '../../src/targets/testbed/index.ts';
import { endpointOf } from '../../src/targets/testbed/runProgram.ts';

const empty = mkdtempSync(join(tmpdir(), 'mcp-sim-sdk-cache-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

/** A repository root holding one fixture manifest `testbeds/go/testbed.json`, and a cache beside it. */
function fixture(name: string, manifest: Omit<SdkTestbedManifest, 'language'>): { root: string; cache: string } {
  const root = join(empty, name);
  mkdirSync(join(root, 'testbeds', 'go'), { recursive: true });
  writeFileSync(join(root, 'testbeds', 'go', 'testbed.json'), JSON.stringify({ language: 'go', ...manifest }));
  return { root, cache: join(root, 'cache') };
}
const installed = (cache: string, path: string) => {
  mkdirSync(join(cache, path, '..'), { recursive: true });
  writeFileSync(join(cache, path), 'x');
};

const released: Omit<SdkTestbedManifest, 'language'> = {
  sdk: { name: 'example-sdk', version: 'v2.0.0' },
  releases: [{ version: 'v2.0.0' }, { version: 'v1.0.0', lacks: ['no stateless mode'], modes: ['stateful-sse'] }],
  install: ['sh', 'testbeds/go/install.sh'],
  ready: '{cache}/bin/server',
  stdio: ['{cache}/bin/server', '--sdk', '{version}'],
  http: { start: ['{cache}/bin/server', '--http', '--port', '{port}', '--mode', '{mode}'], url: 'http://127.0.0.1:{port}/mcp', modes: ['stateful-sse', 'stateless-json'] },
  transports: ['stdio', 'http-stateful-sse', 'http-stateless-json'],
  lacks: ['one thing'],
};

describe('sdkTestbed', () => {
  it.each(SDK_TESTBED_LANGUAGES)('sdkTestbed: a bed not installed in the cache is skipped with its install command (%s)', (language) => {
    const bed = sdkTestbed(language, { cache: empty });
    expect(bed).toMatchObject({ language, skipped: expect.stringMatching(new RegExp(`^not installed: run \`(ba)?sh testbeds/${language}/install\\.sh\` \\(or npm run testbeds:sdk\\)$`)) });
  });

  it('sdkTestbed: a language with no folder is skipped as not built (no manifest)', () => {
    expect(sdkTestbed('go', { root: empty, cache: empty })).toMatchObject({ skipped: expect.stringContaining('testbeds/go/testbed.json does not exist') });
  });

  it('sdkTestbed: a manifest without releases has one build in <cache>/sdk-<language>, and refuses another version', () => {
    const { root, cache } = fixture('single', { ...released, releases: undefined });
    installed(cache, 'sdk-go/bin/server');
    const bed = sdkTestbed('go', { root, cache });
    expect(bed).toMatchObject({ version: 'v2.0.0', pinned: true, stdio: { command: [join(cache, 'sdk-go/bin/server'), '--sdk', 'v2.0.0'] } });
    expect(sdkTestbed('go', { root, cache, version: 'v1.0.0' })).toMatchObject({ skipped: expect.stringContaining('builds only example-sdk v2.0.0') });
  });

  it('sdkTestbed: each release lives in <cache>/sdk-<language>/<version>; the first is the default', () => {
    const { root, cache } = fixture('releases', released);
    installed(cache, 'sdk-go/v2.0.0/bin/server');
    const newest = sdkTestbed('go', { root, cache });
    expect(newest).toMatchObject({ version: 'v2.0.0', pinned: true, modes: ['stateful-sse', 'stateless-json'], lacks: ['one thing'], stdio: { command: [join(cache, 'sdk-go/v2.0.0/bin/server'), '--sdk', 'v2.0.0'] } });
    // The older release is listed but not built: skipped with the install command that builds it.
    expect(sdkTestbed('go', { root, cache, version: 'v1.0.0' })).toMatchObject({ skipped: 'not installed: run `MCP_SIM_SDK_VERSION=v1.0.0 sh testbeds/go/install.sh` (or npm run testbeds:sdk)' });
    installed(cache, 'sdk-go/v1.0.0/bin/server');
    const older = sdkTestbed('go', { root, cache, version: 'v1.0.0' });
    expect(older).toMatchObject({ version: 'v1.0.0', modes: ['stateful-sse'], lacks: ['one thing', 'no stateless mode'] });
    // An unlisted version is built on demand (resolved at install), so its install names it.
    expect(sdkTestbed('go', { root, cache, version: 'v1.5.0' })).toMatchObject({ skipped: 'not installed: run `MCP_SIM_SDK_VERSION=v1.5.0 sh testbeds/go/install.sh` (or npm run testbeds:sdk)' });
  });

  it('sdkTestbed: an HTTP mode gets its start command with {mode} filled; a mode the release lacks is refused by name', () => {
    const { root, cache } = fixture('http', released);
    installed(cache, 'sdk-go/v1.0.0/bin/server');
    const older = sdkTestbed('go', { root, cache, version: 'v1.0.0' });
    if ('skipped' in older) throw new Error(older.skipped);
    expect(older.http('stateful-sse')).toEqual({ url: 'http://127.0.0.1:{port}/mcp', start: { command: [join(cache, 'sdk-go/v1.0.0/bin/server'), '--http', '--port', '{port}', '--mode', 'stateful-sse'] } });
    expect(older.http('stateless-json')).toBeUndefined();
    expect(() => endpointOf(older, 'http-stateless-json')).toThrow('the go test bed (example-sdk v1.0.0) has no http-stateless-json: it offers stdio, http-stateful-sse');
    expect(endpointOf(older, 'http-stateful-sse').kind).toBe('url');
  });

  it('installSdkTestbed: runs the install with MCP_SIM_SDK_VERSION and gives its exit code and last line', async () => {
    const { root, cache } = fixture('install', { ...released, install: ['sh', '-c', 'echo "building $MCP_SIM_SDK_VERSION"; echo "testbed sdk-go: ready ($MCP_SIM_SDK_VERSION)"; exit 4'] });
    const lines: string[] = [];
    const done = await installSdkTestbed('go', { root, cache, version: 'v1.0.0', onLine: (l) => lines.push(l) });
    expect(done).toEqual({ code: 4, lastLine: 'testbed sdk-go: ready (v1.0.0)' });
    expect(lines).toEqual(['building v1.0.0', 'testbed sdk-go: ready (v1.0.0)']);
  });
});
