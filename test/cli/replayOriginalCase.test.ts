import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from './runMain.ts';

/**
 * The printed "replay the original case" command must draw the very case the campaign ran: with
 * a workload that differs from the defaults, a command without the workload flags would draw
 * another case (the bug this guards against).
 */
describe('check → "replay the original case" → replay', () => {
  it('every printed command replays a case that shows the same invariant', async () => {
    const workload = ['--profiles', 'http', '--actions-max', '3', '--steps-max', '2', '--no-faults'];
    const check = await runMain(['check', '--seed', '4242', '--runs', '12', '--no-shrink', '--all-findings', ...workload, '--out', mkdtempSync(join(tmpdir(), 'mcp-sim-rt-'))]);
    // Each finding block: a head line naming the invariant, then its replay command.
    const pairs: { invariant: string; args: string[] }[] = [];
    let invariant: string | undefined;
    for (const line of check.lines) {
      const head = /^(?:✗ VIOLATION|! WARNING {2}|· NOTE {5}) (\S+) \(/.exec(line);
      if (head) invariant = head[1];
      const cmd = /^ {4}replay the original case: npx mcp-sim (.*)$/.exec(line);
      if (cmd) pairs.push({ invariant: invariant!, args: cmd[1]!.split(' ') });
    }
    expect(pairs.length, check.stdout).toBeGreaterThan(1);
    for (const { invariant, args } of pairs) {
      expect(args.slice(5, 5 + workload.length)).toEqual(workload);
      expect(args.slice(5 + workload.length, 7 + workload.length)).toEqual(['--expect', invariant]);
      const replay = await runMain(args);
      const found = replay.lines.filter((l) => /^(✗|!|·) /.test(l)).map((l) => l.split(' ').filter(Boolean)[2]);
      expect(found, `${args.join(' ')} should show ${invariant}`).toContain(invariant);
      expect(replay.lines.at(-1)).toBe(`reproduced: ${invariant}`);
      expect(replay.code).not.toBe(3);
    }
    // The flags matter: without them, these commands draw other cases. (One at a time: runMain
    // captures output with spies that concurrent runs would undo for each other.)
    let differ = 0;
    for (const { args } of pairs) {
      const withFlags = (await runMain(args)).lines[2];
      const without = (await runMain(args.slice(0, 5))).lines[2];
      if (without !== withFlags) differ++;
    }
    expect(differ).toBe(pairs.length);
  });
});
