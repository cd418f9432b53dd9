/**
 * Fuzz an MCP server in any language from your test suite: give the command that starts it over
 * stdio (or a URL), and the test fails with the report when mcp-sim finds a lifecycle bug. The
 * server here is mcp-sim's own small Node fixture; point `command` at yours, for example
 * `['.venv/bin/python', 'server.py']` or `['./target/release/my-server']`.
 */
import { describe, expect, it } from 'vitest';
import { checkTarget, formatRealReport } from 'mcp-sim';

const server = new URL('../test/target/fixtures/workServer.mjs', import.meta.url).pathname;

describe('work server, as a process (black box, real time)', () => {
  it('survives mcp-sim check over stdio: no lifecycle bug in 6 runs', async () => {
    // A fixed seed draws the same cases every time; real time makes each finding's rate part of the report.
    const report = await checkTarget({ command: [process.execPath, server] }, { runs: 6, seed: 1, parallel: 2 });
    expect(report.passed, formatRealReport(report)).toBe(true);
  });

  it('flags a tool that ignores cancellation, with a minimal case and its rate', async () => {
    const report = await checkTarget({ command: [process.execPath, server, '--fault', 'cancel-not-wired'] }, { runs: 16, seed: 1, parallel: 2, rateRuns: 3 });
    const finding = report.findings.find((f) => f.invariant === 'progress.after-cancel');
    expect(finding, formatRealReport(report)).toBeDefined();
    // Real time: the rate is measured, never implied ("reproduced 3/3", "2/3: timing-dependent").
    expect(finding!.rate.runs).toBe(3);
    expect(finding!.determinism).toMatch(/^(reproduced \d\/3|\d\/3: timing-dependent)/);
  });
});
