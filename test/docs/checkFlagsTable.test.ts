import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withTable } from '../../scripts/checkFlagsTable.ts';

/**
 * docs/cli.md's table of which kind of target takes which flag of `check` is made from the code
 * (`npm run docs:flags`): a flag added to src/options/checkFlags.ts, or a kind that takes one
 * more, makes this fail until the page is made again.
 */
describe('docs/cli.md: the flags of check by kind of target', () => {
  it('is the table npm run docs:flags makes from src/options/checkFlags.ts and the kinds', async () => {
    const page = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'cli.md'), 'utf8');
    expect(await withTable(page), 'docs/cli.md: run npm run docs:flags').toBe(page);
  });
});
