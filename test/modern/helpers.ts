import { fileURLToPath } from 'node:url';
import { defaultSdk } from '../../src/sdk/load.ts';
import { loadModernEra } from '../../src/sdk/modern/index.ts';
import type { SdkAdapter } from '../../src/sdk/SdkAdapter.ts';

/** The project folder: its node_modules holds the 2.x client and server 2.4.0 (devDependencies). */
export const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The installed adapter with the 2026-07-28 era of the project's 2.x packages hung off it, as
 * the general 2.x adapter will expose it (`SdkAdapter.modern`).
 */
export async function modernSdk(): Promise<SdkAdapter> {
  return { ...(await defaultSdk()), modern: await loadModernEra(projectRoot) };
}
