import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { defaultSdk, loadSdk, SDK_PACKAGE, V2_CLIENT_PACKAGE, V2_SERVER_PACKAGE } from '../../sdk/load.ts';
import { releaseInFolder } from '../../sdk/sdkRelease.ts';
import { findPackage } from '../../sdk/sdkPackage.ts';
import type { Endpoint, SdkAdapter } from '../../sdk/SdkAdapter.ts';
import { HostedRun, type HostedServer, type ServerSource } from '../../sim/hosted/hostedServer.ts';
import { withSandbox } from '../../sim/withSandbox.ts';
import { messageOf } from '../../util/errors.ts';
import { describeValue, type FactoryContext, type ServerFactory } from './serverFactory.ts';
import { TargetError } from './TargetError.ts';
import { importModule } from '../../util/importModule.ts';

/** A user's server, ready to be built afresh for each run. */
export interface FuzzTarget {
  /** How reports name it: the module path, or `factory`. */
  readonly label: string;
  /** How the server is obtained: a factory called per run, or the module imported again per run. */
  readonly kind: 'factory' | 'import-connect' | 'exported-server';
  /** The release the server is built on (the copy the module resolves). */
  readonly sdk: SdkAdapter;
  readonly source: ServerSource;
}

/**
 * The SDK copies a module at `file` resolves, 1.x first (none: an empty list): its own, which
 * must be the one its server classes come from (an import-time connect is captured on that
 * copy's `Server`). A project may resolve both generations; which one the server is built on is
 * seen when it loads.
 */
async function sdksOf(file: string): Promise<readonly SdkAdapter[]> {
  const v1 = findPackage(SDK_PACKAGE, file);
  const v2Server = findPackage(V2_SERVER_PACKAGE, file, '.');
  if (v2Server && releaseInFolder(v2Server.root) === undefined) {
    throw new TargetError(
      'no-sdk',
      `mcp-sim check: ${file} resolves ${V2_SERVER_PACKAGE}@${v2Server.version} but no ${V2_CLIENT_PACKAGE} beside it (${v2Server.root}); mcp-sim drives a 2.x server with the client of its release: npm i -D ${V2_CLIENT_PACKAGE}@${v2Server.version}`,
    );
  }
  const roots = [v1?.root, v2Server?.root].filter((root): root is string => root !== undefined);
  return Promise.all(roots.map((path) => loadSdk({ kind: 'folder', path })));
}

/** What a server factory is called with: the 2.x factory convention adds the era it serves (always 2025-11-25, `legacy`). */
function factoryContext(generation: 1 | 2, config: Record<string, unknown>): FactoryContext {
  return { ...(generation === 2 && { era: 'legacy' as const }), config, env: {} };
}

/** Every candidate's `connect` captured at once: the servers each copy saw, and the value of `body`. */
async function captureAll<T>(sdks: readonly SdkAdapter[], body: () => Promise<T>): Promise<{ readonly value: T; readonly servers: readonly (readonly Endpoint[])[] }> {
  const [first, ...rest] = sdks;
  if (first === undefined) return { value: await body(), servers: [] };
  const outer = await first.hosting!.captureConnects(() => captureAll(rest, body));
  return { value: outer.value.value, servers: [outer.servers, ...outer.value.servers] };
}

/** Runs `body` in a throwaway sandbox with the I/O guard on: a module's import-time timers and I/O never reach the process. */
function guarded<T>(sdk: SdkAdapter, body: () => Promise<T>): Promise<T> {
  return withSandbox(0, () => {}, async () => {
    const hosted = new HostedRun(sdk, () => {}, () => 0);
    hosted.enter();
    try {
      return await body();
    } finally {
      hosted.exit();
    }
  });
}

/**
 * The server in `value` and the candidate copy it is built on. A server of no candidate (an SDK
 * bundled into the module, an alias copy) looks alike but hands its handlers another context:
 * hosting it through another copy would judge noise.
 */
function serverOrThrow(sdks: readonly SdkAdapter[], value: unknown, from: string): { readonly sdk: SdkAdapter; readonly endpoint: Endpoint } {
  const found = sdks.map((sdk) => ({ sdk, endpoint: sdk.hosting!.serverOf(value) })).filter((c): c is { sdk: SdkAdapter; endpoint: Endpoint } => c.endpoint !== undefined);
  if (found.length === 0) {
    throw new TargetError('not-a-server', `mcp-sim check: ${from} returned ${describeValue(value)}, which is not an MCP server: return an McpServer, a low-level Server, or { server, cleanup }.`);
  }
  const owned = found.find(({ sdk, endpoint }) => sdk.hosting!.ownsServer(endpoint));
  if (!owned) {
    const names = sdks.map((sdk) => `${sdk.name}@${sdk.version} (${sdk.root})`).join(' or ');
    throw new TargetError(
      'foreign-sdk',
      `mcp-sim check: ${from} returned a server that is not built on ${names}, the SDK it resolves: an SDK bundled into the module, or a copy installed under another name.`,
    );
  }
  return owned;
}

/** The cleanup of a `{ server, cleanup }` holder, if any. */
function cleanupOf(value: unknown): (() => unknown) | undefined {
  const cleanup = typeof value === 'object' && value !== null ? (value as { cleanup?: unknown }).cleanup : undefined;
  return typeof cleanup === 'function' ? () => (cleanup as () => unknown).call(value) : undefined;
}

/**
 * A target from a factory: called once now (its errors are the user's to see; the server it
 * returns says which candidate copy it is built on), then once per run with that copy's context.
 */
async function factoryTarget(label: string, sdks: readonly SdkAdapter[], factory: ServerFactory, config: Record<string, unknown>): Promise<FuzzTarget> {
  const call = async (candidates: readonly SdkAdapter[]) => {
    let value: unknown;
    try {
      value = await factory(factoryContext(candidates.some((sdk) => sdk.generation === 2) ? 2 : 1, config));
    } catch (error) {
      throw new TargetError('factory-threw', `mcp-sim check: the server factory of ${label} threw: ${messageOf(error)}`);
    }
    const cleanup = cleanupOf(value);
    return { ...serverOrThrow(candidates, value, `the server factory of ${label}`), ...(cleanup && { cleanup }) };
  };
  const { sdk } = await guarded(sdks[0]!, () => call(sdks));
  const build = async (): Promise<HostedServer> => {
    const { endpoint, cleanup } = await call([sdk]);
    return { endpoint, ...(cleanup && { cleanup }) };
  };
  return { label, kind: 'factory', sdk, source: { create: build } };
}

/** The SDK copies the current project resolves, for a factory handed over in code; mcp-sim's own when none. */
async function projectSdks(): Promise<readonly SdkAdapter[]> {
  const sdks = await sdksOf(join(process.cwd(), 'package.json'));
  return sdks.length > 0 ? sdks : [await defaultSdk()];
}

/** A target from a factory passed in code (`fuzzServer(factory)`). */
export async function factoryTargetOf(factory: ServerFactory, options: { readonly sdk?: SdkAdapter; readonly config?: Record<string, unknown> } = {}): Promise<FuzzTarget> {
  if (typeof factory !== 'function') throw new TargetError('no-server', `fuzzServer: the first argument must be a server factory, got ${describeValue(factory)}.`);
  return factoryTarget(factory.name || 'factory', options.sdk ? [options.sdk] : await projectSdks(), factory, options.config ?? {});
}

/**
 * The server of a user's module, in the ways real servers are written: a default export or a
 * `createServer` export that is a factory; an entry module that connects its server at import
 * (`server.connect(transport)`, or 2.x `serveStdio(factory)`: captured, stdio never started, the
 * module imported again for each run); or a module whose default export is a server.
 */
export async function loadTarget(modulePath: string, options: { readonly config?: Record<string, unknown> } = {}): Promise<FuzzTarget> {
  const file = resolve(modulePath);
  if (!existsSync(file)) throw new TargetError('module-not-found', `mcp-sim check: module ${modulePath} not found (looked for ${file}).`);
  const sdks = await sdksOf(file);
  if (sdks.length === 0) {
    throw new TargetError('no-sdk', `mcp-sim check: ${file} resolves neither ${SDK_PACKAGE} (1.x) nor ${V2_SERVER_PACKAGE} (2.x); install the SDK in the server's project.`);
  }
  const url = pathToFileURL(file).href;
  let imports = 0;
  const importAgain = (candidates: readonly SdkAdapter[]) =>
    captureAll(candidates, async () => importModule(imports++ === 0 ? url : `${url}?mcp-sim-run=${imports}`));
  let first: Awaited<ReturnType<typeof importAgain>>;
  try {
    first = await guarded(sdks[0]!, () => importAgain(sdks));
  } catch (error) {
    throw new TargetError('module-failed', `mcp-sim check: importing ${modulePath} failed: ${messageOf(error)}`);
  }
  const mod = first.value;
  const reimported = (sdk: SdkAdapter, kind: 'import-connect' | 'exported-server'): FuzzTarget => ({
    label: modulePath,
    kind,
    sdk,
    source: {
      async create() {
        const { value, servers } = await importAgain([sdk]);
        const endpoint = servers[0]?.[0] ?? serverOrThrow([sdk], value.default, `the default export of ${modulePath}`).endpoint;
        return { endpoint };
      },
    },
  });
  const connecting = sdks.find((_, i) => (first.servers[i]?.length ?? 0) > 0);
  if (connecting) return reimported(connecting, 'import-connect');
  const factory = typeof mod.default === 'function' ? mod.default : typeof mod.createServer === 'function' ? mod.createServer : undefined;
  if (factory) return factoryTarget(modulePath, sdks, factory as ServerFactory, options.config ?? {});
  if (sdks.some((sdk) => sdk.hosting!.serverOf(mod.default))) {
    return reimported(serverOrThrow(sdks, mod.default, `the default export of ${modulePath}`).sdk, 'exported-server');
  }
  throw new TargetError(
    'no-server',
    `mcp-sim check: ${modulePath} has no server factory (a default export or a createServer export that is a function) and connects no server at import; exports: ${Object.keys(mod).join(', ') || 'none'}.`,
  );
}
