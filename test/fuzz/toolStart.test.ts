import { describe, expect, it } from 'vitest';
import { fuzzCaseAt, fuzzServer, loadTarget, planFuzz, runFuzzCase } from '../../src/fuzz/index.ts';
import { markToolStartsOn, toolStartLimitOf } from '../../src/sdk/hostingShared.ts';
import { loadSdk } from '../../src/sdk/load.ts';
import type { TraceEvent } from '../../src/sim/index.ts';

/**
 * Where a hosted `McpServer`'s tool callback starts (`tool-start`): its `tools/call` handler
 * checks the input asynchronously before calling the tool, so a cancel can land in between. The
 * tool never ran under that abort, and returning a plain result is not a swallowed abort.
 */
const SEED = 20261130;
/** Case 275 of SEED on the echo tool: a timed-out call's cancel arrives in one read with the call. */
const CANCEL_BEFORE_TOOL = 275;

async function replay(module: string, index: number) {
  const target = await loadTarget(module);
  const run = await runFuzzCase(target, fuzzCaseAt(await planFuzz(target), SEED, index));
  return { trace: run.result.trace, ids: run.findings.map((f) => f.invariant) };
}

const toolStarts = (trace: readonly TraceEvent[]) => trace.filter((e) => e.kind === 'tool-start');

describe('fuzz: where the tool callback starts', () => {
  it('2.x: a cancel that landed while McpServer checked the input is not charged to the echo tool (it used to be cancel.abort-swallowed)', async () => {
    const { trace, ids } = await replay('examples/servers/v2/serveStdio.ts', CANCEL_BEFORE_TOOL);
    // The window was hit: the SDK's handler started before the abort, the tool after it.
    const start = trace.findIndex((e) => e.kind === 'handler-start' && e.side === 'server' && e.id === 1);
    const abort = trace.findIndex((e) => e.kind === 'handler-abort' && e.id === 1);
    expect(start).toBeGreaterThanOrEqual(0);
    expect(abort).toBeGreaterThan(start);
    expect(toolStarts(trace)).toContainEqual(expect.objectContaining({ id: 1, aborted: true }));
    // Its callback returned, and no abort reached it (it makes no signal-aware call): a plain result.
    expect(trace).toContainEqual(expect.objectContaining({ kind: 'tool-end', id: 1, outcome: 'returned' }));
    expect(trace).not.toContainEqual(expect.objectContaining({ kind: 'abort-reached', id: 1 }));
    expect(trace).toContainEqual(expect.objectContaining({ kind: 'handler-end', id: 1, outcome: 'result' }));
    expect(ids).not.toContain('cancel.abort-swallowed');
  });

  it('2.x: a tool that swallows an abort that came while it ran is still flagged (examples/servers/v2/faulty/swallowedAbort.ts, 30 runs)', async () => {
    const report = await fuzzServer('examples/servers/v2/faulty/swallowedAbort.ts', { runs: 30, shrink: false });
    expect(report.findings.filter((f) => f.owner === 'server').map((f) => f.invariant)).toContain('cancel.abort-swallowed');
  });

  it('1.x: McpServer tool callbacks are marked too (the same case: the cancel came before the SDK handler, the echo is clean)', async () => {
    const { trace, ids } = await replay('examples/servers/stdioEntry.ts', CANCEL_BEFORE_TOOL);
    expect(toolStarts(trace)).toContainEqual(expect.objectContaining({ id: 1, aborted: true }));
    expect(ids).not.toContain('cancel.abort-swallowed');
  });

  it('a low-level Server has no tool callbacks to mark: its handler start is the tool start', async () => {
    const { trace } = await replay('examples/servers/lowLevel.ts', 1);
    expect(trace.some((e) => e.kind === 'handler-start' && e.side === 'server')).toBe(true);
    expect(toolStarts(trace)).toEqual([]);
  });

  it('a release whose McpServer has no executeToolHandler is not marked, and says so (a limit line in the report)', () => {
    class OldMcpServer {}
    expect(markToolStartsOn(OldMcpServer, () => undefined)).toBeUndefined();
    expect(toolStartLimitOf(OldMcpServer)).toMatch(/^McpServer has no executeToolHandler: .*counts as arriving while the tool ran, and an isError result counts as the tool throwing/);
    expect(toolStartLimitOf(undefined)).toBeUndefined();
    class McpServer {
      executeToolHandler() {}
    }
    expect(toolStartLimitOf(McpServer)).toBeUndefined();
  });

  it('markToolStartsOn shadows executeToolHandler, calls the tool with its arguments and this, hears it return or throw, and gives the method back', async () => {
    class McpServer {
      readonly name = 'mine';
      async executeToolHandler(tool: string, args: unknown) {
        if (tool === 'boom') throw new Error('boom');
        return `${this.name}:${tool}:${JSON.stringify(args)}`;
      }
    }
    const own = McpServer.prototype.executeToolHandler;
    const marks: string[] = [];
    const restore = markToolStartsOn(McpServer, () => {
      marks.push('start');
      return ({ threw, value }) => marks.push(threw ? `threw ${String(value)}` : `returned ${String(value)}`);
    });
    expect(McpServer.prototype.executeToolHandler).not.toBe(own);
    expect(await new McpServer().executeToolHandler('echo', { text: 'a' })).toBe('mine:echo:{"text":"a"}');
    await expect(new McpServer().executeToolHandler('boom', {})).rejects.toThrow('boom');
    expect(marks).toEqual(['start', 'returned mine:echo:{"text":"a"}', 'start', 'threw Error: boom']);
    restore!();
    expect(McpServer.prototype.executeToolHandler).toBe(own);
  });

  it('the installed 1.x and 2.x copies can mark tool starts (no limit)', async () => {
    for (const path of ['node_modules/@modelcontextprotocol/server', 'node_modules/@modelcontextprotocol/sdk']) {
      const sdk = await loadSdk({ kind: 'folder', path });
      expect(sdk.hosting!.toolStartLimit).toBeUndefined();
    }
  });
});
