import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const scratch = mkdtempSync(join(tmpdir(), 'mcp-sim-loads-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The modules `mcp-sim <args>` loaded (paths inside the package and package names), and its exit code. */
function loadsOf(args: readonly string[]): { code: number | null; modules: string[] } {
  const file = join(scratch, `${args.join('_').replace(/\W/g, '')}.txt`);
  const run = spawnSync(process.execPath, ['--import', './test/cli/fixtures/recordLoads.mjs', 'bin/mcp-sim.js', ...args], {
    encoding: 'utf8',
    env: { ...process.env, RECORD_LOADS: file, NO_COLOR: '1' },
  });
  const urls = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const modules = urls.map((u) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u)?.[1] ?? u.replace(/^.*?\/(src|dist)\//, '$1/'));
  return { code: run.status, modules: [...new Set(modules)] };
}

/**
 * What no help or version output needs: the SDK, the generators, the validators, the report
 * writers, the campaign, the simulator and the oracle (the catalogue of invariant ids and the
 * spec revisions are plain data the flags' help names).
 */
const heavy = [
  /^@modelcontextprotocol\//,
  /^fast-check$/,
  /^zod$/,
  /^ajv/,
  /^junit-report-builder$/,
  /^cli-progress$/,
  /^xstate$/,
  /^(src|dist)\/(campaign|sim|fuzz|report|check|explore|matrix|baseline|sdk\/v[12])\//,
  /^(src|dist)\/model\/(?!specRevision|invariants)/,
];

describe('mcp-sim start-up', () => {
  for (const args of [['--version'], ['--help'], ['fuzz', '--help'], ['check', '--help']]) {
    it(`start-up: ${args.join(' ')} loads none of the SDK, fast-check, ajv, the report writers or the campaign`, () => {
      const { code, modules } = loadsOf(args);
      expect(code).toBe(0);
      expect(modules.filter((m) => heavy.some((h) => h.test(m)))).toEqual([]);
    });
  }

  it('start-up: check --runs 1 does load the campaign and the SDK (the recorder sees them)', () => {
    const { modules } = loadsOf(['check', '--runs', '1', '--no-shrink', '--quiet']);
    expect(modules).toContain('@modelcontextprotocol/sdk');
    expect(modules.some((m) => /^(src|dist)\/campaign\//.test(m))).toBe(true);
  });
});
