import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_DIR, prepareMutant } from '../../mutants/lib.ts';
import { findPackage } from '../../src/sdk/sdkPackage.ts';
import { SDK_PACKAGE } from '../../src/sdk/load.ts';
import { runMain } from './runMain.ts';

const projectDir = new URL('../..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-bisect-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a command mcp-sim printed in a fresh process, as a user would paste it. */
function runPrinted(printed: string): { code: number; stdout: string } {
  expect(printed.startsWith('npx mcp-sim ')).toBe(true);
  const r = spawnSync('sh', ['-c', `node bin/mcp-sim.js ${printed.slice('npx mcp-sim '.length)}`], { cwd: projectDir, encoding: 'utf8' });
  return { code: r.status ?? -1, stdout: r.stdout };
}

describe('mcp-sim bisect: the first release that shows a finding, offline on an injected list of folders', () => {
  // Four "releases", oldest first: the installed SDK twice (as `installed` and as its folder), then a copy with
  // a planted bug twice (its folder, spelled two ways): the first bad one is the third.
  let installedDir: string;
  let copy: string;
  let list: string[];
  const flags = ['--invariant', 'timeout.settles', '--cause', 'memory close+sleep', '--runs', '100', '--profiles', 'memory'];
  beforeAll(() => {
    installedDir = relative(projectDir, findPackage(SDK_PACKAGE, import.meta.url)!.root);
    copy = prepareMutant('close-keeps-pending', join(CACHE_DIR, '..', 'mcp-sim-bisect-test')).project;
    list = ['installed', installedDir, copy, `${copy}/`];
  });

  it('finds the first bad release, prints its minimal case and the same case on the release before, each replay command runs', async () => {
    const run = await runMain(['bisect', ...flags, '--good', 'installed', '--bad', `${copy}/`, '--releases', list.join(','), '--out', join(dir, 'found')]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`first bad release: ${copy} \\(@modelcontextprotocol/sdk@1\\.32\\.2\\), \\d+ of 100 runs; cause timeout\\.settles memory close\\+sleep`));
    expect(run.stdout).toContain(`the release before: ${installedDir} (@modelcontextprotocol/sdk@1.32.2): the same case does not reproduce`);
    const [onBad, onBefore] = run.lines.filter((l) => l.trim().startsWith('npx mcp-sim replay')).map((l) => l.trim());
    expect(onBad).toMatch(/\.first-bad\.json --sdk \S+close-keeps-pending$/);
    expect(onBefore).toMatch(/\.release-before\.json --sdk \S+$/);
    const bad = runPrinted(onBad!);
    expect(bad.stdout).toContain('reproduced: timeout.settles');
    const before = runPrinted(onBefore!);
    expect(before).toMatchObject({ code: 0 });
    expect(before.stdout).toContain('no findings');
  });

  it('exit 1 when the good release already shows the finding, or the bad one does not', async () => {
    const goodIsBad = await runMain(['bisect', ...flags, '--good', copy, '--bad', `${copy}/`, '--releases', list.join(','), '--out', join(dir, 'x')]);
    expect(goodIsBad.code).toBe(1);
    expect(goodIsBad.stdout).toContain(`--good ${copy} shows timeout.settles`);
    const badIsGood = await runMain(['bisect', ...flags, '--good', 'installed', '--bad', installedDir, '--releases', list.join(','), '--out', join(dir, 'x')]);
    expect(badIsGood.code).toBe(1);
    expect(badIsGood.stdout).toContain(`--bad ${installedDir} does not show timeout.settles (memory close+sleep) in 100 cases`);
  });

  it('with --good after --bad, finds where the finding disappears (a fix), and runs the last bad release\'s case on the first fixed one', async () => {
    const fixList = [copy, `${copy}/`, installedDir, 'installed'];
    const run = await runMain(['bisect', ...flags, '--good', 'installed', '--bad', copy, '--releases', fixList.join(','), '--out', join(dir, 'fixed')]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`first fixed release: ${installedDir} (@modelcontextprotocol/sdk@1.32.2); the last release with it: ${copy}/ (`);
    expect(run.stdout).toContain(`the first fixed release: ${installedDir} (@modelcontextprotocol/sdk@1.32.2): the same case does not reproduce`);
    const printed = run.lines.filter((l) => l.trim().startsWith('npx mcp-sim replay')).map((l) => l.trim());
    expect(printed[0]).toMatch(/\.last-bad\.json --sdk \S+close-keeps-pending\/$/);
    expect(printed[1]).toMatch(/\.first-fixed\.json --sdk \S+$/);
  });

  it('exit 2 with one line on bad usage: an unknown invariant, a release not in the list, good and bad the same', async () => {
    const unknown = await runMain(['bisect', '--invariant', 'no.such', '--good', 'installed', '--bad', copy, '--releases', list.join(',')]);
    expect(unknown).toMatchObject({ code: 2 });
    expect(unknown.stderr).toContain('--invariant no.such: no such invariant');
    const missing = await runMain(['bisect', ...flags, '--good', '1.0.0', '--bad', copy, '--releases', list.join(',')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--good 1.0.0 is not one of --releases');
    const same = await runMain(['bisect', ...flags, '--good', copy, '--bad', copy, '--releases', list.join(',')]);
    expect(same.code).toBe(2);
    expect(same.stderr).toContain('--good and --bad name the same release');
  });
});
