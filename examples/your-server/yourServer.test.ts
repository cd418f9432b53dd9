import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMain } from '../../test/cli/runMain.ts';

/** The Python example servers' venv (`npm run examples`): it has the `mcp` package the server imports. */
const python = join(process.env.MCP_SIM_EXAMPLES_CACHE ?? join('node_modules', '.cache', 'mcp-sim', 'examples'), 'python', 'venv', 'bin', 'python');
const out = mkdtempSync(join(tmpdir(), 'mcp-sim-your-server-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

interface Doc {
  target: { language?: string };
  toolCounts: { tool: string; calls: number; cancels: number }[];
  findings: { invariant: string; owner: string; confirmed: boolean; tool?: string; advice?: string }[];
}

/** A Python author's first run (examples/your-server/python/server.py): found in their terms. */
describe('check -- python examples/your-server/python/server.py', () => {
  it("the sync def's rounded percentage and its cancel are the Python author's to fix, said in Python; the async def tool has none", async () => {
    expect(existsSync(python), `${python}: build the example servers first (npm run examples)`).toBe(true);
    const json = join(out, 'r.json');
    const run = await runMain(['check', '--runs', '12', '--rate-runs', '2', '--out', out, '--json', json, '--', python, 'examples/your-server/python/server.py']);
    expect(run.code).toBe(1);
    const doc = JSON.parse(readFileSync(json, 'utf8')) as Doc;
    expect(doc.target.language).toBe('python');
    expect(doc.toolCounts.map((c) => c.tool).sort()).toEqual(['count', 'resize']);
    expect(doc.toolCounts.every((c) => c.calls > 0 && c.cancels > 0)).toBe(true);
    const increasing = doc.findings.find((f) => f.invariant === 'progress.increasing' && f.confirmed);
    expect(increasing).toMatchObject({ tool: 'resize', advice: expect.stringMatching(/^fix \(Python, tool resize\): .*ctx\.report_progress\(i, total\)/) });
    expect(run.stdout).toContain('fix (Python, tool resize)');
    expect(run.stdout).not.toContain('extra.signal');
    expect(doc.findings.filter((f) => f.tool === 'count' && f.owner === 'target' && f.confirmed)).toEqual([]);
  });
});
