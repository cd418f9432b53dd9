import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareMutant } from '../../mutants/lib.ts';
import { runMain } from './runMain.ts';

/**
 * The walkthrough (docs/walkthrough.md), run as written: a copy of the SDK with a planted bug (the mutant
 * result-after-cancel: a handler's result goes out after its request was cancelled), a campaign
 * that finds it with a Markdown report, the replay that emits a regression test, the test failing
 * on the faulty copy and passing on the real SDK (the fault removed).
 */
const dir = join(process.cwd(), 'test', '.emitted', `walkthrough-${process.pid}`);
mkdirSync(dir, { recursive: true });
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const vitest = (file: string, env: Record<string, string>) =>
  spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', file], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, ...env } });

describe('docs/walkthrough.md: a planted race, found, reported, replayed, kept as a test', () => {
  it('finds cancel.no-response-after on the faulty copy, and the emitted test fails there and passes on the real SDK', async () => {
    const copy = prepareMutant('result-after-cancel').project;
    const report = join(dir, 'race.md');
    const out = join(dir, 'repro');
    const check = await runMain(['check', `sdk@${copy}`, '--report', report, '--out', out]);
    expect(check.code).toBe(1);
    expect(check.lines.at(-1)).toMatch(/^FAIL: .*cancel\.no-response-after/);
    const md = readFileSync(report, 'utf8');
    expect(md).toContain('### `cancel.no-response-after` (SHOULD, basic/utilities/cancellation): ❌ fails the campaign');
    expect(md).toContain('```mermaid\nsequenceDiagram');

    const file = join(out, 'cancel.no-response-after.json');
    expect(existsSync(file)).toBe(true);
    const test = join(dir, 'no-response-after.test.ts');
    const replay = await runMain(['replay', file, '--sdk', copy, '--emit-test', test]);
    expect(replay.lines.at(-1)).toBe('reproduced: cancel.no-response-after');

    const onFaulty = vitest(test, { MCP_SIM_SDK: copy });
    expect(onFaulty.status, onFaulty.stdout + onFaulty.stderr).toBe(1);
    const onReal = vitest(test, { MCP_SIM_SDK: '' });
    expect(onReal.status, onReal.stdout + onReal.stderr).toBe(0);
  });
});
