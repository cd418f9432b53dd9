import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMain } from './runMain.ts';

// Inside the project, so that `import … from 'mcp-sim'` resolves (package self-reference), as it does in a project that installed it.
const dir = join(process.cwd(), 'test', '.emitted', `run-${process.pid}`);
mkdirSync(dir, { recursive: true });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const entry = 'cancel.not-initialize memory reordered';
const vitest = (file: string) => spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', file], { encoding: 'utf8', timeout: 120_000 });

describe('replay --emit-test: a counterexample as a vitest regression test', () => {
  it('writes a test that fails while the finding reproduces, and with --emit-expect present one that passes', async () => {
    const absent = join(dir, 'absent.test.ts');
    const run = await runMain(['replay', '--baseline', entry, '--emit-test', absent]);
    expect(run.lines).toContain(`emitted test: ${absent} (fails while cancel.not-initialize reproduces; run it with npx vitest run ${absent})`);
    const text = readFileSync(absent, 'utf8');
    expect(text).toContain(`// Emitted by: npx mcp-sim replay --baseline "${entry}"`);
    expect(text).toContain(`import { runChecked } from 'mcp-sim';`);
    const failing = vitest(absent);
    expect(failing.status, failing.stdout + failing.stderr).toBe(1);
    expect(failing.stdout).toContain('cancel.not-initialize no longer happens');

    const present = join(dir, 'present.test.ts');
    await runMain(['replay', '--baseline', entry, '--emit-test', present, '--emit-expect', 'present']);
    const passing = vitest(present);
    expect(passing.status, passing.stdout + passing.stderr).toBe(0);
  });

  it('refuses to emit without an invariant, and an --emit-expect without --emit-test', async () => {
    const noInvariant = await runMain(['replay', '--seed', '1', '--case', '0', '--emit-test', join(dir, 'x.test.ts')]);
    expect(noInvariant.code).toBe(2);
    expect(noInvariant.stderr).toMatch(/--emit-test needs the invariant the test is about: give --expect INVARIANT/);
    const stray = await runMain(['replay', '--baseline', entry, '--emit-expect', 'present']);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toMatch(/--emit-expect/);
  });
});
