import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const SDK = '@modelcontextprotocol/sdk';

/** Name and version of the SDK under test, as installed next to mcp-sim. */
export function installedSdk(): { name: string; version: string } {
  // The SDK's `exports` map hides its package.json: walk up from a module it does export.
  let dir = dirname(createRequire(import.meta.url).resolve(`${SDK}/types.js`));
  for (; dirname(dir) !== dir; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === SDK && pkg.version) return { name: SDK, version: pkg.version };
  }
  throw new Error(`mcp-sim: cannot find the version of ${SDK}; is it installed?`);
}
