import { describe, expect, it } from 'vitest';
import { pathFromCwd, replayFileName, replayPlace, targetHash } from '../../src/cli/replayPath.ts';

const python = (file: string, cwd?: string) => ({ kind: 'process', argument: ['--', 'python', file], spec: { kind: 'process', command: 'python', args: [file], ...(cwd && { cwd }) } });

describe('replay files: named by target and invariant, never another target\'s', () => {
  it('the target\'s words, the short hash of its spec, the invariant; the same target the same name', () => {
    expect(replayFileName(python('/home/a/srv/server.py'), 'progress.after-cancel', 0)).toBe(`python-server.py-${targetHash(python('/home/a/srv/server.py').spec)}-progress.after-cancel.json`);
    expect(replayFileName(python('server.py'), 'progress.after-cancel', 1)).toMatch(/^python-server\.py-[0-9a-f]{8}-progress\.after-cancel-2\.json$/);
    expect(replayFileName(python('server.py'), 'progress.after-cancel', 0)).toBe(replayFileName(python('server.py'), 'progress.after-cancel', 0));
    expect(targetHash({ b: 1, a: 2 })).toBe(targetHash({ a: 2, b: 1 }));
  });

  it('two targets with the same words (the same command in another folder) get two files', () => {
    const names = [python('server.py', '/srv/a'), python('server.py', '/srv/b'), python('a/server.py'), python('b/server.py')].map((t) => replayFileName(t, 'lifecycle.stdio-exit', 0));
    expect(new Set(names).size).toBe(4);
  });

  it('a URL keeps its host and path', () => {
    const url = { kind: 'url', argument: ['http://127.0.0.1:{port}/mcp', '--start', 'node s.js'], spec: { kind: 'url', url: 'http://127.0.0.1:{port}/mcp' } };
    expect(replayFileName(url, 'http.accepted-202', 0)).toMatch(/^127\.0\.0\.1_port_mcp-node_s\.js-[0-9a-f]{8}-http\.accepted-202\.json$/);
  });

  it('the printed path runs from where the campaign ran: relative beneath the cwd, absolute outside it, quoted for a shell', () => {
    expect(pathFromCwd('.mcp-sim/repro/x.json', '/work/p')).toBe('.mcp-sim/repro/x.json');
    expect(pathFromCwd('/work/p/out/x.json', '/work/p')).toBe('out/x.json');
    expect(pathFromCwd('../elsewhere/x.json', '/work/p')).toBe('/work/elsewhere/x.json');
    expect(pathFromCwd('/tmp/x.json', '/work/p')).toBe('/tmp/x.json');
    expect(replayPlace('my out', 'x.json', '/work/p')).toEqual({ file: 'my out/x.json', command: "npx mcp-sim replay 'my out/x.json'" });
  });
});
