/**
 * Where mcp-sim's own files live, relative to its installed copy: the one place that turns the
 * package's folder into paths, so targets and baselines (which sit in different layers) name
 * the same folder without importing each other.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding mcp-sim's package.json. */
export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `properties/baselines/`: where every baseline lives (the SDK test beds' in `testbeds/`, the clients' in `clients/`). */
export const BASELINES_DIR = join(PROJECT_ROOT, 'properties', 'baselines');
