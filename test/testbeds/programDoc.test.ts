import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SDK_TESTBED_LANGUAGES, sdkTestbedManifest, sdkTestbedReleases } from '../../src/targets/testbed/index.ts';

/**
 * testbeds/PROGRAM.md names the releases each test bed pins: its table is what every
 * testbed.json lists, in the same order (newest first, the default first), so the contract a user
 * reads does not drift from what is built.
 */
const program = readFileSync(new URL('../../testbeds/PROGRAM.md', import.meta.url), 'utf8');

describe('testbeds/PROGRAM.md', () => {
  it.each(SDK_TESTBED_LANGUAGES)("the releases table lists %s's testbed.json releases", (language) => {
    const listed = sdkTestbedReleases(sdkTestbedManifest(language)!).map((r) => r.version).join(', ');
    const row = new RegExp(`^\\| ${language} \\| ([^|]+) \\|$`, 'm').exec(program)?.[1]?.trim();
    expect(row, `testbeds/PROGRAM.md, "Releases": the row of ${language} should read | ${language} | ${listed} |`).toBe(listed);
  });
});
