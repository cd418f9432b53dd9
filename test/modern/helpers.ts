import { fileURLToPath } from 'node:url';
import { loadSdk } from '../../src/sdk/load.ts';
import type { SdkAdapter } from '../../src/sdk/SdkAdapter.ts';

/** The scope folder holding the project's 2.x pair (the project folder also holds 1.x, so it is refused). */
export const v2Folder = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol', import.meta.url));

/** The 2.x adapter of the project's pair, whose `modern` is the 2026-07-28 era. */
export async function modernSdk(): Promise<SdkAdapter> {
  return loadSdk({ kind: 'folder', path: v2Folder });
}
