import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The Go and Rust sources of the test beds and example servers are as their formatters write
 * them (gofmt, rustfmt with its defaults), so an editor's format-on-save changes nothing but the
 * edit. Read-only checks, no build; a missing formatter shows as a skipped test that says which.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const run = (command: string, args: string[]) => spawnSync(command, args, { cwd: root, encoding: 'utf8' });
/** Why `command args` cannot run (not on PATH, or exits non-zero: cargo without rustfmt), or undefined. */
const missing = (command: string, args: string[]): string | undefined => {
  const probe = run(command, args);
  return probe.error || probe.status !== 0 ? `${[command, ...args].join(' ')} failed (${probe.error?.message ?? probe.stderr.trim()})` : undefined;
};

const GO_DIRS = ['testbeds/go', 'examples/servers/go'];
const RUST_MANIFESTS = ['testbeds/rust/Cargo.toml', 'examples/servers/rust/Cargo.toml'];

describe('source formatting', () => {
  const noGofmt = missing('gofmt', ['-l', 'testbeds/go/main.go']);
  if (noGofmt) it.skip(`gofmt -l ${GO_DIRS.join(' ')}: skipped, missing toolchain: ${noGofmt} (install Go)`, () => {});
  else
    it(`gofmt -l ${GO_DIRS.join(' ')} lists no file`, () => {
      const out = run('gofmt', ['-l', ...GO_DIRS]);
      expect(out.stderr).toBe('');
      const files = out.stdout.trim().split('\n').filter(Boolean);
      expect(files, `not gofmt-formatted: ${files.join(', ')}; fix: gofmt -w ${files.join(' ')}`).toEqual([]);
    });

  const noRustfmt = missing('cargo', ['fmt', '--version']);
  for (const manifest of RUST_MANIFESTS) {
    if (noRustfmt) it.skip(`cargo fmt --check --manifest-path ${manifest}: skipped, missing toolchain: ${noRustfmt} (install Rust with rustup, and rustup component add rustfmt)`, () => {});
    else
      it(`cargo fmt --check --manifest-path ${manifest} finds nothing to change`, () => {
        const out = run('cargo', ['fmt', '--check', '--manifest-path', manifest]);
        expect(out.status, `${out.stdout}${out.stderr}\nnot rustfmt-formatted; fix: cargo fmt --manifest-path ${manifest}`).toBe(0);
      });
  }
});
