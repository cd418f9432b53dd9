import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fuzzServer } from '../../src/fuzz/index.ts';
import { loadTarget } from '../../src/targets/module/loadModule.ts';
import { loadSdk } from '../../src/sdk/load.ts';
import { TargetError } from '../../src/targets/module/TargetError.ts';
import { contexts, createServer as v2Factory } from './fixtures/v2Server.ts';

/**
 * `mcp-sim fuzz` on servers built on the 2.x packages (`@modelcontextprotocol/server`), hosted
 * through the 2.x adapter's `hosting`: found as the SDK the module resolves, called with the 2.x
 * factory context, observed through `ctx.mcpReq`, and captured at `serveStdio` without stdio.
 */
const serverIds = (report: Awaited<ReturnType<typeof fuzzServer>>) => report.findings.filter((f) => f.owner === 'server').map((f) => f.invariant);

describe('fuzz: 2.x servers', () => {
  it('hosts a 2.x factory on the 2.x pair the module resolves, called with { era: "legacy", config, env }', async () => {
    const target = await loadTarget('test/fuzz/fixtures/v2Server.ts', { config: { region: 'eu' } });
    expect(target.kind).toBe('factory');
    expect(`${target.sdk.name}@${target.sdk.version}`).toMatch(/^@modelcontextprotocol\/server@2\./);
    expect(contexts.at(-1)).toEqual({ era: 'legacy', config: { region: 'eu' }, env: {} });
  });

  it('fuzzServer(factory) in code: a 2.x factory is hosted on the 2.x pair the project resolves', async () => {
    const report = await fuzzServer(v2Factory, { runs: 20 });
    expect(report.target.sdk.name).toBe('@modelcontextprotocol/server');
    expect(report.tools.fuzzed).toEqual(['hello']);
    expect(report.passed).toBe(true);
  });

  it('runs examples/servers/v2/crawler.ts (JSON Schema input, progress via ctx.mcpReq.notify) clean (100 runs)', async () => {
    const report = await fuzzServer('examples/servers/v2/crawler.ts', { runs: 100 });
    expect(report.target.sdk.name).toBe('@modelcontextprotocol/server');
    expect(serverIds(report)).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.stateful).toBe(false);
  });

  it('captures a serveStdio(factory) entry without touching stdin, and runs it clean (60 runs)', async () => {
    const listening = process.stdin.listenerCount('data');
    const report = await fuzzServer('examples/servers/v2/serveStdio.ts', { runs: 60 });
    expect(report.target.kind).toBe('import-connect');
    expect(report.tools.fuzzed).toEqual(['echo']);
    expect(serverIds(report)).toEqual([]);
    expect(process.stdin.listenerCount('data')).toBe(listening);
  });

  it('flags examples/servers/v2/faulty/fetchWithoutSignal.ts with cancel.reaches-work, advice in 2.x terms (30 runs)', async () => {
    const report = await fuzzServer('examples/servers/v2/faulty/fetchWithoutSignal.ts', { runs: 30, shrink: false });
    expect(serverIds(report)).toContain('cancel.reaches-work');
    expect(report.passed).toBe(false);
    const finding = report.findings.find((f) => f.invariant === 'cancel.reaches-work')!;
    expect(finding.explanation).toContain('tool "crawl"');
    expect(finding.explanation).toContain('fetch(url, { signal: ctx.mcpReq.signal })');
  });

  it('captureConnects catches a 2.x connect without starting the transport, and gives Server.prototype.connect back', async () => {
    const sdk = await loadSdk({ kind: 'folder', path: 'node_modules/@modelcontextprotocol/server' });
    const server = sdk.createServer();
    const proto = Object.getPrototypeOf(server) as { connect: unknown };
    const own = proto.connect;
    let started = false;
    const transport = { start: () => ((started = true), Promise.resolve()), send: () => Promise.resolve(), close: () => Promise.resolve() };
    const { servers } = await sdk.hosting!.captureConnects(() => server.connect(transport));
    expect(servers).toEqual([server]);
    expect(started).toBe(false);
    expect(proto.connect).toBe(own);
  });

  it('refuses in one line a 2.x server package without the client of its release beside it', async () => {
    const project = mkdtempSync(join(tmpdir(), 'mcp-sim-v2-alone-'));
    const pkg = join(project, 'node_modules', '@modelcontextprotocol', 'server');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@modelcontextprotocol/server', version: '2.4.0', type: 'module', exports: { '.': './index.js' } }));
    writeFileSync(join(pkg, 'index.js'), 'export {};\n');
    writeFileSync(join(project, 'server.mjs'), 'export function createServer() { return {}; }\n');
    const error = await loadTarget(join(project, 'server.mjs')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetError);
    expect((error as Error).message).toMatch(/resolves @modelcontextprotocol\/server@2\.4\.0 but no @modelcontextprotocol\/client beside it .*npm i -D @modelcontextprotocol\/client@2\.4\.0$/);
  });
});
