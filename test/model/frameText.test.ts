import { describe, expect, it } from 'vitest';
import { canonicalJson, summarizeFrame } from '../../src/model/rules/frameText.ts';
import { canonicalJson as simCanonicalJson } from '../../src/sim/json.ts';
import type { JsonValue } from '../../src/sim/json.ts';
import { summarizeFrame as simSummarizeFrame } from '../../src/sim/trace.ts';

/** The HTTP rule's copies of two simulator helpers must say what the originals say. */
describe('frameText: the model\'s copies of summarizeFrame and canonicalJson', () => {
  const frames: JsonValue[] = [
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: {}, _meta: { progressToken: 1 } } },
    { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'a', progress: 2, total: 5 } },
    { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } },
    { jsonrpc: '2.0', id: 1, result: { b: 1, a: [2, { d: 1, c: 0 }] } },
    { jsonrpc: '2.0', id: 'x', error: { code: -32001, message: 'Request timed out' } },
    { jsonrpc: '2.0' },
    [1, 2],
    null,
    'text',
  ];
  it('should agree with the originals on every kind of frame', () => {
    for (const f of frames) {
      expect(summarizeFrame(f)).toBe(simSummarizeFrame(f));
      expect(canonicalJson(f)).toBe(simCanonicalJson(f));
    }
  });
});
