import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SDK_TESTBED_LANGUAGES, sdkTestbed, sdkTestbedManifest, sdkTestbedReleases, testbedBaselineOf, type SdkTestbedManifest } from '../../src/targets/testbed/index.ts';
import { layerVariant } from '../../src/targets/testbed/languages.ts';
import { defaultTestbedLayer, sdkTestbedLayers } from '../../src/targets/testbed/sdkTestbed.ts';
import { layeredCases, testbedCases } from '../../src/targets/testbed/testbedCases.ts';

/**
 * Test beds' layers (testbeds/PROGRAM.md, "Layers"): which interpreters a manifest and a release
 * offer, which one runs by default, the command each layer gets, how a campaign on both splits its
 * plans, and that every manifest naming two layers really hands `{layer}` to its interpreter.
 */
const tmp = mkdtempSync(join(tmpdir(), 'mcp-sim-layers-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const base: Omit<SdkTestbedManifest, 'language'> = {
  sdk: { name: 'example-sdk', version: 'v2.0.0' },
  releases: [{ version: 'v2.0.0' }, { version: 'v1.0.0', layers: ['low'] }],
  install: ['sh', 'testbeds/go/install.sh'],
  ready: '{cache}/bin/server',
  stdio: ['{cache}/bin/server', '--layer', '{layer}'],
  http: { start: ['{cache}/bin/server', '--layer', '{layer}', '--http', '--mode', '{mode}'], url: 'http://127.0.0.1:{port}/mcp', modes: ['stateful-sse'] },
  transports: ['stdio', 'http-stateful-sse'],
  lacks: [],
  layers: { low: 'raw handlers', high: 'typed tools' },
  layerLacks: { high: ['the high layer drops something'] },
};

/** A repository root holding `manifest` as testbeds/go/testbed.json, every release installed. */
function fixture(name: string, manifest: Omit<SdkTestbedManifest, 'language'>): { root: string; cache: string } {
  const root = join(tmp, name);
  const cache = join(root, 'cache');
  mkdirSync(join(root, 'testbeds', 'go'), { recursive: true });
  writeFileSync(join(root, 'testbeds', 'go', 'testbed.json'), JSON.stringify({ language: 'go', ...manifest }));
  for (const { version } of manifest.releases ?? []) {
    mkdirSync(join(cache, 'sdk-go', version, 'bin'), { recursive: true });
    writeFileSync(join(cache, 'sdk-go', version, 'bin', 'server'), 'x');
  }
  return { root, cache };
}

describe('test-bed layers', () => {
  it('a bed names its layers; the low one runs by default, each layer gets {layer} in its commands and its own lacks', () => {
    const { root, cache } = fixture('two', base);
    const server = join(cache, 'sdk-go/v2.0.0/bin/server');
    expect(sdkTestbed('go', { root, cache })).toMatchObject({ layer: 'low', layers: ['low', 'high'], lacks: [], stdio: { command: [server, '--layer', 'low'] } });
    const high = sdkTestbed('go', { root, cache, layer: 'high' });
    if ('skipped' in high) throw new Error(high.skipped);
    expect(high).toMatchObject({ layer: 'high', lacks: ['the high layer drops something'], stdio: { command: [server, '--layer', 'high'] } });
    expect(high.http('stateful-sse')?.start?.command).toEqual([server, '--layer', 'high', '--http', '--mode', 'stateful-sse']);
  });

  it('a release may offer fewer layers: the one it lacks is refused by name', () => {
    const { root, cache } = fixture('narrowed', base);
    expect(sdkTestbed('go', { root, cache, version: 'v1.0.0' })).toMatchObject({ layer: 'low', layers: ['low'] });
    expect(sdkTestbed('go', { root, cache, version: 'v1.0.0', layer: 'high' })).toMatchObject({ skipped: 'the go test bed of example-sdk v1.0.0 has no high layer: it offers low (PROGRAM.md, "Layers")' });
  });

  it('a manifest naming no layers has the low one alone; a bed whose SDK has one public API names only high, and runs it by default', () => {
    const { root, cache } = fixture('none', { ...base, layers: undefined });
    expect(sdkTestbed('go', { root, cache })).toMatchObject({ layer: 'low', layers: ['low'] });
    const only = fixture('high-only', { ...base, layers: { high: 'the one API' } });
    expect(sdkTestbed('go', { root: only.root, cache: only.cache })).toMatchObject({ layer: 'high', layers: ['high'] });
    expect(sdkTestbed('go', { root: only.root, cache: only.cache, layer: 'low' })).toMatchObject({ skipped: expect.stringContaining('has no low layer: it offers high') });
    expect([defaultTestbedLayer(['low', 'high']), defaultTestbedLayer(['high']), defaultTestbedLayer([])]).toEqual(['low', 'high', 'low']);
  });

  it('both layers: each plan runs on each layer in turn (low, then high), the same number of runs as one layer', () => {
    const plans = testbedCases(3, 5);
    const cases = layeredCases(3, 10, ['low', 'high']);
    expect(cases).toHaveLength(10);
    expect(cases.map((c) => c.layer)).toEqual(Array.from({ length: 10 }, (_, k) => (k % 2 === 0 ? 'low' : 'high')));
    cases.forEach((c, k) => expect({ ...c, layer: undefined }).toEqual({ ...plans[Math.floor(k / 2)], layer: undefined }));
    // An odd count: the last plan runs on the low layer alone.
    expect(layeredCases(3, 5, ['low', 'high']).map((c) => c.layer)).toEqual(['low', 'high', 'low', 'high', 'low']);
    expect(layeredCases(3, 4, ['high']).every((c) => c.layer === 'high')).toBe(true);
    // The same invariant on the two layers is two causes.
    expect(layerVariant('stdio', 'low')).not.toBe(layerVariant('stdio', 'high'));
  });

  it.each(SDK_TESTBED_LANGUAGES)('the %s manifest: a bed naming two layers hands {layer} to every server command; one naming one says why there is no other', (language) => {
    const manifest = sdkTestbedManifest(language)!;
    const layers = sdkTestbedLayers(manifest, sdkTestbedReleases(manifest)[0]);
    expect(layers.length).toBeGreaterThan(0);
    const commands = [manifest.stdio, ...(manifest.http ? [manifest.http.start] : [])];
    if (layers.length > 1) for (const command of commands) expect(command).toContain('{layer}');
    else expect(manifest.lacks.some((l) => l.startsWith(`no ${layers[0] === 'high' ? 'low' : 'high'} layer`))).toBe(true);
  });

  it("the Java bed's baseline entries were found on its one layer, the high one, and are read only there", () => {
    const release = { language: 'java', sdk: 'io.modelcontextprotocol.sdk:mcp', version: '2.1.0' } as const;
    expect(testbedBaselineOf(release, 'stdio', ['high']).known.length).toBeGreaterThan(0);
    expect(testbedBaselineOf(release, 'stdio', ['high']).known.every((k) => k.variant === layerVariant('stdio', 'high'))).toBe(true);
    expect(testbedBaselineOf(release, 'stdio', ['low']).known).toEqual([]);
  });
});
