import type { SdkModules } from '../SdkAdapter.ts';

/**
 * Imports the modules of a 1.x release. `url` maps a subpath to the file URL the package
 * exports for it, or `undefined`. The optional modules may be absent: the package's `./*`
 * export resolves even when the file is missing, so a failed import means "not in this release".
 */
export async function importV1Modules(url: (subpath: string) => string | undefined): Promise<SdkModules> {
  const required = async <T>(subpath: string): Promise<T> => {
    const href = url(subpath);
    if (href === undefined) throw new Error(`the package exports no ${subpath}`);
    return (await import(href)) as T;
  };
  const optional = async <T>(subpath: string): Promise<T | undefined> => {
    const href = url(subpath);
    if (href === undefined) return undefined;
    try {
      return (await import(href)) as T;
    } catch {
      return undefined;
    }
  };
  const [client, server, types, inMemory, stdio, streamableHttpServer, streamableHttpClient, mcp] = await Promise.all([
    required<SdkModules['client']>('client/index.js'),
    required<SdkModules['server']>('server/index.js'),
    required<SdkModules['types']>('types.js'),
    required<SdkModules['inMemory']>('inMemory.js'),
    required<SdkModules['stdio']>('shared/stdio.js'),
    optional<NonNullable<SdkModules['streamableHttpServer']>>('server/webStandardStreamableHttp.js'),
    optional<NonNullable<SdkModules['streamableHttpClient']>>('client/streamableHttp.js'),
    optional<NonNullable<SdkModules['mcp']>>('server/mcp.js'),
  ]);
  return { client, server, types, inMemory, stdio, streamableHttpServer, streamableHttpClient, mcp };
}
