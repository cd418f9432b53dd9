import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SDK_TESTBED_LANGUAGES, sdkTestbed } from '../../src/realtime/testbed/index.ts';

const empty = mkdtempSync(join(tmpdir(), 'mcp-sim-sdk-cache-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

describe('sdkTestbed', () => {
  it.each(SDK_TESTBED_LANGUAGES)('sdkTestbed: a bed not installed in the cache is skipped with its install command (%s)', (language) => {
    const bed = sdkTestbed(language, { cache: empty });
    expect(bed).toMatchObject({ language, skipped: expect.stringMatching(new RegExp(`^not installed: run \`(ba)?sh testbeds/${language}/install\\.sh\` \\(or npm run testbeds:sdk\\)$`)) });
  });

  it('sdkTestbed: a language with no folder is skipped as not built (no manifest)', () => {
    expect(sdkTestbed('go', { root: empty, cache: empty })).toMatchObject({ skipped: expect.stringContaining('testbeds/go/testbed.json does not exist') });
  });

  it('sdkTestbed: an installed bed gets its stdio command with {cache} and {dir} filled', () => {
    // A cache holding only the manifest's `ready` marker: the bed counts as installed.
    const cache = join(empty, 'filled');
    const venv = join(cache, 'sdk-python', 'venv');
    mkdirSync(venv, { recursive: true });
    writeFileSync(join(venv, '.mcp-sim-requirements'), 'x');
    const ready = sdkTestbed('python', { cache });
    expect(ready).toMatchObject({ stdio: { command: [join(cache, 'sdk-python/venv/bin/python'), join(process.cwd(), 'testbeds/python/server.py')] } });
  });
});
