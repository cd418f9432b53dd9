import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runCommand } from '../../scripts/docCommands.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** What picocolors decides in the command's own process: colour or not. */
const colourOf = 'node -e "process.stdout.write(String(require(\'picocolors\').isColorSupported))"';

describe('the commands the docs show run without colour', () => {
  const before = process.env.FORCE_COLOR;
  afterEach(() => {
    if (before === undefined) delete process.env.FORCE_COLOR;
    else process.env.FORCE_COLOR = before;
  });

  it('picocolors says no colour, even with FORCE_COLOR set in the test run (FORCE_COLOR=0 would turn it on)', async () => {
    process.env.FORCE_COLOR = '1';
    const run = await runCommand(root, root, colourOf, 30_000);
    expect(run.code).toBe(0);
    expect(run.output).toBe('false');
  });

  it('FORCE_COLOR=0 itself turns picocolors on: the reason the runner sets NO_COLOR instead', async () => {
    const run = await runCommand(root, root, `FORCE_COLOR=0 NO_COLOR= ${colourOf}`, 30_000);
    expect(run.output).toBe('true');
  });
});
