import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { defaultSdk, loadSdk, SDK_PACKAGE } from '../../sdk/load.ts';
import { findPackage } from '../../sdk/sdkPackage.ts';
import type { Endpoint, SdkAdapter } from '../../sdk/SdkAdapter.ts';
import { HostedRun, type HostedServer, type ServerSource } from '../../sim/hosted/hostedServer.ts';
import { withSandbox } from '../../sim/withSandbox.ts';
import { messageOf } from '../../util/errors.ts';
import { describeValue, type FactoryContext, type ServerFactory } from './serverFactory.ts';
import { TargetError } from './TargetError.ts';

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

/** The 2.x server package, which mcp-sim cannot host yet (named in the error). */
const SDK_V2_SERVER = '@modelcontextprotocol/server';

/**
 * The SDK a module at `file` resolves: its own copy, which must be the one its server classes
 * come from (an import-time connect is captured on that copy's `Server`).
 */
async function sdkOf(file: string): Promise<SdkAdapter> {
  const pkg = findPackage(SDK_PACKAGE, file);
  if (pkg) return loadSdk({ kind: 'folder', path: pkg.root });
  const v2 = findPackage(SDK_V2_SERVER, file) !== undefined || existsSync(join(dirname(file), 'node_modules', SDK_V2_SERVER));
  throw new TargetError(
    'no-sdk',
    v2
      ? `mcp-sim fuzz: ${file} resolves ${SDK_V2_SERVER} (2.x) but not ${SDK_PACKAGE} (1.x); fuzzing 2.x servers is not supported yet.`
      : `mcp-sim fuzz: ${file} resolves no ${SDK_PACKAGE}; install the SDK in the server's project.`,
  );
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

function serverOrThrow(sdk: SdkAdapter, value: unknown, from: string): Endpoint {
  const endpoint = sdk.hosting!.serverOf(value);
  if (!endpoint) {
    throw new TargetError('not-a-server', `mcp-sim fuzz: ${from} returned ${describeValue(value)}, which is not an MCP server: return an McpServer, a low-level Server, or { server, cleanup }.`);
  }
  // A server of another SDK copy (the 2.x packages, or an SDK bundled into the module) looks
  // alike but hands its handlers another context: hosting it through this copy would judge noise.
  if (!sdk.hosting!.ownsServer(endpoint)) {
    throw new TargetError(
      'foreign-sdk',
      `mcp-sim fuzz: ${from} returned a server that is not built on ${sdk.name}@${sdk.version} (${sdk.root}), the SDK it resolves: a 2.x server (@modelcontextprotocol/server), which mcp-sim cannot host yet, or an SDK bundled into the module.`,
    );
  }
  return endpoint;
}

/** The cleanup of a `{ server, cleanup }` holder, if any. */
function cleanupOf(value: unknown): (() => unknown) | undefined {
  const cleanup = typeof value === 'object' && value !== null ? (value as { cleanup?: unknown }).cleanup : undefined;
  return typeof cleanup === 'function' ? () => (cleanup as () => unknown).call(value) : undefined;
}

/** A target from a factory: called once now (its errors are the user's to see), then once per run. */
async function factoryTarget(label: string, sdk: SdkAdapter, factory: ServerFactory, context: FactoryContext): Promise<FuzzTarget> {
  const build = async (): Promise<HostedServer> => {
    let value: unknown;
    try {
      value = await factory(context);
    } catch (error) {
      throw new TargetError('factory-threw', `mcp-sim fuzz: the server factory of ${label} threw: ${messageOf(error)}`);
    }
    const cleanup = cleanupOf(value);
    return { endpoint: serverOrThrow(sdk, value, `the server factory of ${label}`), ...(cleanup && { cleanup }) };
  };
  await guarded(sdk, build);
  return { label, kind: 'factory', sdk, source: { create: build } };
}

/** The SDK the current project resolves, for a factory handed over in code; mcp-sim's own when none. */
async function projectSdk(): Promise<SdkAdapter> {
  const pkg = findPackage(SDK_PACKAGE, join(process.cwd(), 'package.json'));
  return pkg ? loadSdk({ kind: 'folder', path: pkg.root }) : defaultSdk();
}

/** A target from a factory passed in code (`fuzzServer(factory)`). */
export async function factoryTargetOf(factory: ServerFactory, options: { readonly sdk?: SdkAdapter; readonly config?: Record<string, unknown> } = {}): Promise<FuzzTarget> {
  if (typeof factory !== 'function') throw new TargetError('no-server', `fuzzServer: the first argument must be a server factory, got ${describeValue(factory)}.`);
  const sdk = options.sdk ?? (await projectSdk());
  return factoryTarget(factory.name || 'factory', sdk, factory, { config: options.config ?? {}, env: {} });
}

/**
 * The server of a user's module, in the ways real servers are written: a default export or a
 * `createServer` export that is a factory; an entry module that connects its server at import
 * (captured at its `connect`, stdio never started: the module is imported again for each run);
 * or a module whose default export is a server.
 */
export async function loadTarget(modulePath: string, options: { readonly config?: Record<string, unknown> } = {}): Promise<FuzzTarget> {
  const file = resolve(modulePath);
  if (!existsSync(file)) throw new TargetError('module-not-found', `mcp-sim fuzz: module ${modulePath} not found (looked for ${file}).`);
  const sdk = await sdkOf(file);
  const hosting = sdk.hosting;
  if (!hosting) throw new TargetError('no-sdk', `mcp-sim fuzz: the adapter of ${sdk.name}@${sdk.version} cannot host a user's server.`);
  const url = pathToFileURL(file).href;
  let imports = 0;
  const importAgain = () =>
    hosting.captureConnects(async () => (await import(imports++ === 0 ? url : `${url}?mcp-sim-run=${imports}`)) as Record<string, unknown>);
  let first: { value: Record<string, unknown>; servers: readonly Endpoint[] };
  try {
    first = await guarded(sdk, importAgain);
  } catch (error) {
    throw new TargetError('module-failed', `mcp-sim fuzz: importing ${modulePath} failed: ${messageOf(error)}`);
  }
  const mod = first.value;
  const reimported = (kind: 'import-connect' | 'exported-server'): FuzzTarget => ({
    label: modulePath,
    kind,
    sdk,
    source: {
      async create() {
        const { value, servers } = await importAgain();
        const endpoint = servers[0] ?? serverOrThrow(sdk, value.default, `the default export of ${modulePath}`);
        return { endpoint };
      },
    },
  });
  if (first.servers.length > 0) return reimported('import-connect');
  const factory = typeof mod.default === 'function' ? mod.default : typeof mod.createServer === 'function' ? mod.createServer : undefined;
  if (factory) return factoryTarget(modulePath, sdk, factory as ServerFactory, { config: options.config ?? {}, env: {} });
  if (hosting.serverOf(mod.default)) {
    serverOrThrow(sdk, mod.default, `the default export of ${modulePath}`);
    return reimported('exported-server');
  }
  throw new TargetError(
    'no-server',
    `mcp-sim fuzz: ${modulePath} has no server factory (a default export or a createServer export that is a function) and connects no server at import; exports: ${Object.keys(mod).join(', ') || 'none'}.`,
  );
}
