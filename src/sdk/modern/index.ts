/** The 2026-07-28 era of the 2.x packages: what `SdkAdapter.modern` exposes. */
export { MODERN_REVISION, type ModernEra, type PerRequestHandler, type PerRequestHandlerOptions } from './ModernEra.ts';
export { createModernEra } from './createModernEra.ts';
