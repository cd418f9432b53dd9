import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHECK_FLAGS } from '../../src/options/checkFlags.ts';
import { targetKinds } from '../../src/targets/kinds.ts';
import type { TargetKind } from '../../src/targets/Target.ts';
import { LEAVABLE_PARTS } from '../../src/workload/leavableParts.ts';
import { runMain } from './runMain.ts';

const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const argsFile = join(dir, 'args.json');
writeFileSync(argsFile, '{}');

/** A target of each kind that parses without anything installed or started (`--dry-run` opens none). */
const TARGETS: Readonly<Record<TargetKind, { readonly before: readonly string[]; readonly after: readonly string[] }>> = {
  sdk: { before: [], after: [] },
  module: { before: ['examples/servers/crawler.ts'], after: [] },
  process: { before: [], after: ['--', 'node', 'server.mjs'] },
  url: { before: ['http://127.0.0.1:{port}/mcp'], after: [] },
  testbed: { before: ['testbed:go'], after: [] },
  client: { before: ['client:go'], after: [] },
};

/** A value each flag takes that is valid for every kind that takes it. */
function valueOf(flag: string, kind: TargetKind): string[] {
  const values: Record<string, string> = {
    '--runs': '3',
    '--seed': '7',
    '--fail-on': 'must',
    '--json': join(dir, 'r.json'),
    '--junit': join(dir, 'r.xml'),
    '--report': join(dir, 'r.md'),
    '--out': join(dir, 'repro'),
    '--html': join(dir, 'r.html'),
    '--workers': '2',
    '--shard': '1/2',
    '--time-limit': '2',
    '--seeds': '1..2',
    '--spec': '2025-11-25',
    '--profiles': 'memory',
    '--actions-max': '3',
    '--steps-max': '2',
    '--leave-out': LEAVABLE_PARTS[0]!,
    '--args': argsFile,
    '--tools': 'work',
    '--config': '{"k":1}',
    '--parallel': '3',
    '--rate-runs': '4',
    '--hang-after': '5000',
    '--cwd': dir,
    '--env': 'A=1',
    '--start': 'node server.mjs --port {port}',
    '--transport': kind === 'client' ? 'http' : 'http-stateful-sse',
    '--scenario': 'result',
    '--tool-duration': 'work=30000',
    '--layer': 'high',
    '--max-frame-bytes': '65536',
    '--max-notifications': '500',
    '--max-notification-rate': '200',
  };
  const value = values[flag];
  const withStart = kind === 'url' && (flag === '--cwd' || flag === '--env') ? ['--start', 'node server.mjs --port {port}'] : [];
  return value === undefined ? [flag, ...withStart] : [flag, value, ...withStart];
}

/** How the value of `flag` shows in the dry run's JSON, when it is a value of its own. */
function shows(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (flag === '--hang-after') return `"hangAfterMs": ${value}`;
  if (flag === '--tool-duration') return '"work": 30000';
  if (flag === '--max-frame-bytes') return `"maxFrameBytes": ${value}`;
  if (flag === '--max-notifications') return `"maxNotifications": ${value}`;
  if (flag === '--max-notification-rate') return `"maxNotificationRate": ${value}`;
  if (['--runs', '--seed', '--parallel', '--rate-runs', '--workers', '--actions-max', '--steps-max'].includes(flag)) return `: ${value}`;
  if (flag === '--shard' || flag === '--seeds' || flag === '--config' || flag === '--start' || flag === '--env' || flag === '--transport' || flag === '--scenario' || flag === '--tools' || flag === '--leave-out') return value.split(/[=/.{]/)[0]!.replace(/"/g, '');
  return value;
}

describe('check: every flag of the table against every kind of target (works, or refused with exit 2 and why)', async () => {
  const kinds = await targetKinds();
  it('the table and the kinds agree: every flag a kind takes is in the table', () => {
    for (const k of kinds) for (const f of k.flags) expect(CHECK_FLAGS.some((x) => x.name === f), `${k.kind} takes ${f}`).toBe(true);
  });
  for (const k of kinds) {
    it(`${k.kind}: each flag it takes resolves into the options; each other flag is refused in one line, exit 2`, async () => {
      const target = TARGETS[k.kind];
      for (const flag of CHECK_FLAGS) {
        const words = valueOf(flag.name, k.kind);
        const run = await runMain(['check', ...target.before, ...words, '--dry-run', ...target.after]);
        if (k.flags.has(flag.name)) {
          expect(run.code, `${k.kind} ${words.join(' ')}: ${run.stderr}`).toBe(0);
          const shown = shows(flag.name, words[1]);
          if (shown !== undefined) expect(run.stdout, `${k.kind} ${words.join(' ')}`).toContain(shown);
        } else {
          expect(run.code, `${k.kind} ${words.join(' ')}: ${run.stdout}`).toBe(2);
          const lines = run.stderr.trim().split('\n');
          expect(lines, `${k.kind} ${flag.name}`).toHaveLength(1);
          expect(lines[0], `${k.kind} ${flag.name}`).toContain(flag.name);
        }
      }
    });
  }
});
