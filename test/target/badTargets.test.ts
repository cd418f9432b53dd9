import { describe, expect, it } from 'vitest';
import { runMain } from '../cli/runMain.ts';
import { fuzzProcess } from '../../src/realtime/index.ts';
import { BadTargetError } from '../../src/target/index.ts';

const fixture = 'test/target/fixtures/workServer.mjs';
const server = (fault: string) => `node ${fixture} --fault ${fault}`;

/** `mcp-sim …` through the exported `main` (the commands docs/process-targets.md shows), from the repository root. */
const cli = (args: string[]) => runMain(args);

describe('fuzz --stdio / --url: bad targets are one line and exit 2', () => {
  it.each([
    ['a command that is not found', ['--stdio', 'no-such-server-xyz'], /command not found.*no-such-server-xyz/],
    ['a server that exits at once', ['--stdio', server('exits-at-once')], /exited \(code 1\); stderr: fatal: no config file before it answered initialize/],
    ['a program that is not MCP', ['--stdio', server('not-mcp')], /not an MCP server: it wrote "Hello! Type a command:"/],
    ['a server of an unknown protocol version', ['--stdio', server('old-protocol')], /protocol version "2023-01-01"/],
    ['a URL that refuses', ['--url', 'http://127.0.0.1:9/mcp'], /refused the connection or cannot be reached/],
    ['--start without --url', ['--stdio', 'x', '--start', 'y'], /--start needs --url/],
  ])('Bad target: %s', async (_what, args, message) => {
    const { code, stderr } = await cli(['fuzz', ...args]);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message);
  });

  it('fuzzProcess: a bad target throws BadTargetError (kind exited)', async () => {
    await expect(fuzzProcess({ command: server('exits-at-once') }, { runs: 1 })).rejects.toMatchObject({ name: 'BadTargetError', kind: 'exited' });
    expect(BadTargetError).toBeDefined();
  });
});
