/** The 2026-07-28 era of the 2.x packages: what `SdkAdapter.modern` exposes. */
export { MODERN_REVISION, type ModernEra, type PerRequestHandler, type PerRequestHandlerOptions } from './ModernEra.ts';
export { loadModernEra, ModernEraUnavailableError } from './loadModernEra.ts';
export { modernPackagesIn, MODERN_CLIENT_PACKAGE, MODERN_SERVER_PACKAGE } from './modernPackages.ts';
