/**
 * Builds one mutant's copy of the SDK and prints its folder: a release with a planted bug, for
 * `--sdk PATH` or `MCP_SIM_SDK` (docs/walkthrough.md).
 *
 *   node --import tsx mutants/prepare.ts <mutant id>
 */
import { relative } from 'node:path';
import { PROJECT_DIR, prepareMutant, readMutantIndex } from './lib.ts';

const id = process.argv[2];
const ids = readMutantIndex().mutants.map((m) => m.id);
if (!id || !ids.includes(id)) {
  process.stderr.write(`mutants/prepare.ts: give a mutant id, one of: ${ids.join(', ')}\n`);
  process.exit(2);
}
console.log(relative(PROJECT_DIR, prepareMutant(id).project));
