/**
 * Fuzz your own MCP server from your test suite: copy this file next to your server, point the
 * import at your factory, and run it with vitest. It fails with the report when mcp-sim finds a
 * pitfall in your tools (progress, cancellation, timeouts, work that never ends).
 */
import { describe, expect, it } from 'vitest';
import { formatFuzzReport, fuzzServer } from 'mcp-sim';
import { createServer } from './servers/crawler.ts';

describe('crawler server', () => {
  it('survives mcp-sim check: no pitfall in its tools', async () => {
    // A fixed seed: the same runs every time; raise `runs` in a nightly job.
    const report = await fuzzServer(createServer, { runs: 200, seed: 1 });
    expect(report.passed, formatFuzzReport(report, new Map())).toBe(true);
  });
});
