import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMain } from './runMain.ts';

const scratch = mkdtempSync(join(tmpdir(), 'mcp-sim-check-target-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('check --target: bad input is one line and exit 2 (no test bed needed)', () => {
  it.each([
    [['--target', 'cobol'], /^mcp-sim check --target: unknown language "cobol": one of typescript, python, go, rust, java\.$/],
    [['--target', 'python', '--transport', 'http-foo'], /^mcp-sim check --target: unknown transport "http-foo": one of stdio, http-stateful-sse, http-stateful-json, http-stateless-sse, http-stateless-json\.$/],
  ])('check %j', async (args, line) => {
    const run = await runMain(['check', ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(line)]);
  });

  it('a replay file of another kind is refused in one line', async () => {
    const file = join(scratch, 'other.json');
    writeFileSync(file, JSON.stringify({ kind: 'fuzz-process' }));
    const run = await runMain(['check', '--target', 'go', '--replay', file]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(`mcp-sim check --target --replay ${file}: not a replay file of check --target (kind "testbed-check").`);
  });
});
