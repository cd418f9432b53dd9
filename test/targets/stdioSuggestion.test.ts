import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stdioSuggestion } from '../../src/targets/stdioSuggestion.ts';
import { runMain } from '../cli/runMain.ts';

/**
 * `check server.py` (a server file that is not a module) answers with the one command that checks
 * it as a stdio server, in the words of that language's users, and exits 2 without running.
 */
const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-suggest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const touch = (path: string, mode = 0o644) => {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), '');
  chmodSync(join(dir, path), mode);
};

describe('stdioSuggestion', () => {
  it('Python: the venv next to the file when there is one, else python and the venv form', () => {
    touch('plain/server.py');
    expect(stdioSuggestion('plain/server.py', dir)).toBe("-- python plain/server.py (or your venv's python: -- .venv/bin/python plain/server.py)");
    touch('app/server.py');
    touch('app/.venv/bin/python', 0o755);
    expect(stdioSuggestion('app/server.py', dir)).toBe('-- app/.venv/bin/python app/server.py');
  });

  it("Go: go run . in the file's folder; Rust: cargo run in the crate's", () => {
    expect(stdioSuggestion('main.go', dir)).toBe('-- go run .');
    expect(stdioSuggestion('srv/main.go', dir)).toBe('--cwd srv -- go run .');
    touch('crate/Cargo.toml');
    touch('crate/src/main.rs');
    expect(stdioSuggestion('crate/src/main.rs', dir)).toBe('--cwd crate -- cargo run --quiet');
  });

  it('Java: the jar mvn package makes; a jar; a binary as it is; no idea: undefined', () => {
    expect(stdioSuggestion('Server.java', dir)).toMatch(/^-- java -jar <your jar> \(after mvn package/);
    expect(stdioSuggestion('target/s.jar', dir)).toBe('-- java -jar target/s.jar');
    touch('bin/server', 0o755);
    expect(stdioSuggestion('bin/server', dir)).toBe('-- bin/server');
    touch('server', 0o755);
    expect(stdioSuggestion('server', dir)).toBe('-- ./server');
    touch('notes', 0o644);
    expect(stdioSuggestion('notes', dir)).toBeUndefined();
    expect(stdioSuggestion('data.csv', dir)).toBeUndefined();
  });
});

describe('check <a server file that is not a module>', () => {
  for (const [file, command] of [
    ['examples/your-server/python/server.py', 'mcp-sim check -- python examples/your-server/python/server.py'],
    ['examples/your-server/go/main.go', 'mcp-sim check --cwd examples/your-server/go -- go run .'],
  ] as const) {
    it(`${file}: one line naming the stdio form, exit 2, nothing run`, async () => {
      const run = await runMain(['check', file]);
      expect(run.code).toBe(2);
      const said = run.stderr.trim().split('\n');
      expect(said).toHaveLength(1);
      expect(said[0]).toContain(`check it as the stdio server it is: ${command}`);
      expect(run.stdout).toBe('');
    });
  }
});
