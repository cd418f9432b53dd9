import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { findPackage } from '../../src/sdk/sdkPackage.ts';
import { SDK_PACKAGE } from '../../src/sdk/load.ts';

/** The installed SDK's package folder. */
const installedRoot = (): string => findPackage(SDK_PACKAGE, import.meta.url)!.root;

/**
 * Copies of the installed SDK package, each a separate copy to Node (its own module instances,
 * its own classes). They live under the project's `node_modules/.cache`, so that the copy's
 * own imports (zod, ajv, …) resolve to the project's packages.
 */
export class SdkCopies {
  private readonly base: string;

  constructor() {
    const root = installedRoot();
    const cache = join(root.slice(0, root.lastIndexOf(`${sep}node_modules${sep}`)), 'node_modules', '.cache');
    mkdirSync(cache, { recursive: true });
    this.base = mkdtempSync(join(cache, 'mcp-sim-sdk-copies-'));
  }

  /** A copy of the package folder (ESM build only), without the files `drop` names (paths inside the package). */
  copy(name: string, drop: readonly string[] = []): string {
    const from = installedRoot();
    const to = join(this.base, name);
    cpSync(from, to, {
      recursive: true,
      filter: (file) => {
        const inside = relative(from, file).split(sep).join('/');
        return !file.endsWith('.map') && !inside.startsWith('dist/cjs') && !drop.includes(inside);
      },
    });
    return to;
  }

  /** An empty folder (no SDK in it). */
  empty(name: string): string {
    const dir = join(this.base, name);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  remove(): void {
    rmSync(this.base, { recursive: true, force: true });
  }
}
