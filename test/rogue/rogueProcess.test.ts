import { describe, expect, it } from 'vitest';
import { formatRogueProcessTable, rogueProcess } from '../../src/rogue/rogueProcess.ts';
import { stdioEndpoint } from '../../src/targets/index.ts';

const fixture = 'test/target/fixtures/workServer.mjs';
const endpoint = stdioEndpoint({ command: [process.execPath, fixture] }, { graceMs: 500 });
const ids = (row: { findings: readonly { invariant: string }[] }) => row.findings.map((f) => f.invariant);

/** Rogue frames against a real process (the hand-written fixture server): each run recorded and judged by the model on a real clock. */
describe('rogue against a process: the model judges each run (black box)', () => {
  it('should find nothing where the server answers as JSON-RPC says: -32601 for an unknown method, -32700 for a line that is not JSON', async () => {
    const { rows } = await rogueProcess(endpoint, 'work', 'unknown-method');
    expect(rows).toEqual([expect.objectContaining({ kind: 'unknown-method-request', answer: 'error -32601', state: 'ok', findings: [] })]);
    const line = await rogueProcess(endpoint, 'work', 'not-json');
    expect(line.rows.map((r) => [r.kind, r.answer, ids(r)])).toEqual([['not-json', 'error -32700', []]]);
  });

  it('should report what the model finds when a frame kills the server: it exits on a bare 42, so the ping after it never reaches it', async () => {
    const { rows } = await rogueProcess(endpoint, 'work', 'non-object-number');
    expect(rows.map((r) => r.state)).toEqual(['crashed']);
    expect(ids(rows[0]!)).toEqual(expect.arrayContaining(['lifecycle.stdio-exit', 'rpc.survives-bad-input']));
    expect(formatRogueProcessTable(rows)).toMatch(/non-object-number\s+none\s+crashed\s+.*lifecycle\.stdio-exit/);
  });
});
