import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sdkTestbedManifest, sdkTestbedReleases } from '../../src/targets/testbed/index.ts';

/**
 * The build files at the root of testbeds/go and testbeds/rust, what editors, `go build ./...` and
 * `cargo check` use in place, are the newest pinned release's (the first of testbed.json's
 * `releases`, the one install.sh builds by default), so working in place works on what is built.
 * A new release is pinned in releases/<version>/ and copied here.
 */
const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const newest = (language: 'go' | 'rust') => sdkTestbedReleases(sdkTestbedManifest(language)!)[0]!.version;

describe('in-place build files are the newest pinned release', () => {
  it.each(['go.mod', 'go.sum'])('testbeds/go/%s is releases/<newest>/ its namesake', (file) => {
    const version = newest('go');
    expect(read(`testbeds/go/${file}`), `testbeds/go/${file} differs from testbeds/go/releases/${version}/${file}; fix: cp testbeds/go/releases/${version}/${file} testbeds/go/`).toBe(read(`testbeds/go/releases/${version}/${file}`));
  });

  it('testbeds/rust/Cargo.lock is releases/<newest>/Cargo.lock', () => {
    const version = newest('rust');
    expect(read('testbeds/rust/Cargo.lock'), `testbeds/rust/Cargo.lock differs from testbeds/rust/releases/${version}/Cargo.lock; fix: cp testbeds/rust/releases/${version}/Cargo.lock testbeds/rust/`).toBe(read(`testbeds/rust/releases/${version}/Cargo.lock`));
  });

  it("testbeds/rust/Cargo.toml asks for the newest rmcp exactly, with its major version's adapter feature by default", () => {
    const version = newest('rust');
    const manifest = read('testbeds/rust/Cargo.toml');
    expect(/^rmcp = \{ version = "=([^"]+)"/m.exec(manifest)?.[1]).toBe(version);
    expect(/^default = \["(rmcp-v\d+)"\]/m.exec(manifest)?.[1]).toBe(`rmcp-v${version.split('.')[0]}`);
  });
});
