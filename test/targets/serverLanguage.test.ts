import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { languageOfCommand, shellWords } from '../../src/targets/serverLanguage.ts';

const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-language-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('languageOfCommand: the language of the server a command starts, as its author would tell it', () => {
  it.each([
    [['python', 'server.py'], 'python'],
    [['python3.12', '-m', 'my_server'], 'python'],
    [['uv', 'run', 'server.py'], 'python'],
    [['uvx', 'mcp-server-fetch'], 'python'],
    [['go', 'run', '.'], 'go'],
    [['cargo', 'run', '--release'], 'rust'],
    [['./target/release/my-server'], 'rust'],
    [['java', '-jar', 'server.jar'], 'java'],
    [['node', 'dist/index.js'], 'typescript'],
    [['npx', 'tsx', 'server.ts'], 'typescript'],
    [['env', 'DEBUG=1', 'python', 'server.py'], 'python'],
    [['sh', '-c', 'cd srv && exec ./serve --stdio'], undefined],
    [['sh', '-c', 'exec uv run server.py'], 'python'],
  ] as const)('%j → %s', (command, language) => {
    expect(languageOfCommand(command, dir)).toBe(language);
  });

  it('a start line (a URL\'s --start) is split as a shell would, quotes honoured', () => {
    expect(shellWords(`python "my server.py" --port '{port}'`)).toEqual(['python', 'my server.py', '--port', '{port}']);
    expect(languageOfCommand('python "my server.py" --port {port}')).toBe('python');
  });

  it("a script by its #! line; a program nothing tells (no extension, no #!, no toolchain's mark) is unknown, not guessed", () => {
    const script = join(dir, 'serve');
    writeFileSync(script, '#!/usr/bin/env python3\nprint(1)\n');
    chmodSync(script, 0o755);
    expect(languageOfCommand([script])).toBe('python');
    const blob = join(dir, 'blob');
    writeFileSync(blob, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 1, 2, 3]));
    expect(languageOfCommand([blob])).toBeUndefined();
    expect(languageOfCommand(['./no-such-program'], dir)).toBeUndefined();
    expect(languageOfCommand([])).toBeUndefined();
  });

  it('a native binary by its toolchain: Go writes its build info into every binary', () => {
    const binary = join(dir, 'server');
    writeFileSync(binary, Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.alloc(100), Buffer.from('\xff Go buildinf:', 'latin1'), Buffer.alloc(100)]));
    expect(languageOfCommand([binary])).toBe('go');
  });
});
