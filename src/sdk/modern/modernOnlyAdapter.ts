import type { SdkAdapter, SdkModules } from '../SdkAdapter.ts';
import { v1Probe } from '../v1/probe.ts';
import { MODERN_REVISION, type ModernEra } from './ModernEra.ts';
import { modernFacts } from './modernFacts.ts';

/**
 * An adapter for a folder of the 2.x packages that offers their 2026-07-28 era only
 * (`--sdk <folder> --spec 2026-07-28`), until the general 2.x adapter (`src/sdk/v2/`) serves
 * their session era too and hangs the same `ModernEra` off itself. Its session era is empty and
 * says why: no methods, no Streamable HTTP transports (campaigns leave the memory and http
 * profiles out and report it), and its session-era endpoints refuse with that reason.
 */
export function createModernOnlyAdapter(era: ModernEra): SdkAdapter {
  const why = `mcp-sim drives the 2.x packages' ${MODERN_REVISION} era only in this build (profile http-2026, --spec ${MODERN_REVISION}); their 2025-11-25 session era needs the 2.x adapter`;
  const refuse = (): never => {
    throw new Error(why);
  };
  return {
    name: '@modelcontextprotocol/server',
    version: era.version,
    root: era.root,
    facts: modernFacts,
    capabilities: { streamableHttpServer: false, streamableHttpClient: false, elicitation: false, handlerRequestId: true },
    methods: [],
    createClient: refuse,
    createServer: refuse,
    handle: refuse,
    request: refuse,
    requestParams: refuse,
    result: refuse,
    errorCode: (error) => era.errorCode(error),
    handlerError: (code, message) => era.handlerError(code, message),
    deserializeMessage: refuse,
    http: undefined,
    probe: v1Probe(modernFacts),
    get modules(): SdkModules {
      return refuse();
    },
    modern: era,
  };
}
