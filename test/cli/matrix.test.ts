import { describe, expect, it } from 'vitest';
import { prepareMutant } from '../../mutants/lib.ts';
import { runMain } from './runMain.ts';

describe('mcp-sim matrix: one campaign on several releases, one table', () => {
  it('puts the installed release and a copy with a planted bug side by side; only the copy breaks what the bug breaks', async () => {
    // In the project's cache (as the mutation suite builds it): the copy's own imports resolve from the project.
    const copy = prepareMutant('close-keeps-pending').project;
    const run = await runMain(['matrix', '--sdk', `installed,${copy}`, '--runs', '300']);
    expect(run.code).toBe(0);
    expect(run.lines).toContain('| invariant | 1.32.2 | 1.32.2 |');
    const row = run.lines.find((l) => l.startsWith('| `lifecycle.close-settles` |'));
    // Known on neither (no baseline entry), found only on the copy: close leaves pending calls unsettled.
    expect(row).toMatch(/^\| `lifecycle\.close-settles` \| – \| \d+ new \|$/);
    expect(run.lines.find((l) => l.startsWith('| `leak.abort-listeners` |'))).toMatch(/^\| `leak\.abort-listeners` \| \d+ \| \d+ \|$/);
  });

  it('refuses a bad release in the list with one line', async () => {
    const run = await runMain(['matrix', '--sdk', 'installed,latest', '--runs', '5']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--sdk latest: not an exact version/);
  });
});
