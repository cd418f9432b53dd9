import { describe, expect, it } from 'vitest';
import { rogueVerdicts } from '../../src/rogue/rogueProcess.ts';

/** The verdicts of `rogue --stdio|--url` on one rogue row (pure: the answer and state are given). */
const failed = (codes: readonly number[] | undefined, answer: string, state: 'ok' | 'crashed' | 'hung') =>
  rogueVerdicts(codes, answer, state)
    .filter((v) => !v.met)
    .map((v) => v.invariant);

describe('rogue against a process or URL: the verdict of each row names its invariant (black box)', () => {
  it('rpc.error-code: fires on a result, no answer, or another code where a JSON-RPC code applies / silent on the right code, and on a kind with none', () => {
    expect(failed([-32700], 'none', 'ok')).toEqual(['rpc.error-code']);
    expect(failed([-32600], 'error -32601', 'ok')).toEqual(['rpc.error-code']);
    expect(failed([-32602], 'result', 'ok')).toEqual(['rpc.error-code']);
    expect(rogueVerdicts([-32602], 'result', 'ok')[0]!.detail).toBe('answered result, not error -32602 (invalid params)');
    expect(failed([-32601], 'error -32601', 'ok')).toEqual([]);
    expect(failed([-32600, -32602], 'result, error -32602', 'ok')).toEqual([]);
    expect(failed(undefined, 'result', 'ok')).toEqual([]);
  });

  it('rpc.survives-bad-input: fires on a server that exited or hangs after the frame / silent on one that answers the ping', () => {
    expect(failed(undefined, 'none', 'crashed')).toEqual(['rpc.survives-bad-input']);
    expect(rogueVerdicts(undefined, 'none', 'hung')[0]!.detail).toMatch(/no answer to a ping within \d+ ms after the frame: it hangs/);
    expect(failed(undefined, 'none', 'ok')).toEqual([]);
  });
});
