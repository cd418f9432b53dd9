import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ajvValidator } from '../../src/workload/ajvValidator.ts';

/**
 * "A seventh kind touches only its own folder": a copy of mcp-sim gains a kind of target by one new
 * folder, src/targets/nodescript/ (a stdio server given as `node:<file>`), and nothing else. The
 * copy's `check --help` lists its form, `check node:<file>` runs the one campaign on it and writes
 * a report the schema accepts, a flag it does not take is refused, `replay FILE` reproduces its
 * finding, and the type checker accepts the new folder against the seam.
 */
const root = new URL('../../', import.meta.url).pathname;
const schema = JSON.parse(readFileSync(join(root, 'schemas/report.schema.json'), 'utf8')) as object;
const validate = ajvValidator(schema);

/** The whole of the new kind: what a contributor adding a seventh kind writes, in its own folder. */
const NODE_SCRIPT_KIND = `import { COMMON_FLAGS, flagSet, REAL_TIME_FLAGS, TOOL_FLAGS } from '../../options/checkFlags.ts';
import type { TargetKindDefinition } from '../Target.ts';

declare module '../Target.ts' {
  interface TargetSpecs {
    nodescript: { readonly kind: 'nodescript'; readonly file: string; readonly args: readonly string[] };
  }
}

/** A stdio server written as a Node script: node:<file>[#arg,arg]. */
export const nodeScriptKind: TargetKindDefinition<'nodescript'> = {
  kind: 'nodescript',
  clock: 'real',
  author: 'user',
  forms: ['node:<file>[#arg,...]   a stdio server written as a Node script, real time'],
  parse(argument) {
    if (argument === undefined || !argument.startsWith('node:')) return undefined;
    const [file, args] = argument.slice('node:'.length).split('#');
    return { kind: 'nodescript', file: file!, args: args ? args.split(',') : [] };
  },
  argumentOf: (spec) => [\`node:\${spec.file}\${spec.args.length > 0 ? \`#\${spec.args.join(',')}\` : ''}\`],
  flags: flagSet(COMMON_FLAGS, TOOL_FLAGS, REAL_TIME_FLAGS),
  refusal: (flag) => \`\${flag} does not apply to a Node script\`,
  async openReal(spec, settings) {
    const { openProcess } = await import('../process/open.ts');
    const argument = nodeScriptKind.argumentOf(spec);
    const target = await openProcess({ kind: 'process', command: [process.execPath, spec.file, ...spec.args] }, { graceMs: settings.graceMs, choice: settings, argument });
    return { ...target, kind: 'nodescript', describe: () => ({ ...target.describe(), kind: 'nodescript', spec, argument, label: \`node \${spec.file}\` }) };
  },
};
`;

let copy: string;
const mcpSim = (args: readonly string[]) => spawnSync(process.execPath, ['bin/mcp-sim.js', ...args], { cwd: copy, encoding: 'utf8', env: { ...process.env, MCP_SIM_FROM_SOURCE: '1' }, timeout: 120_000 });

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'mcp-sim-seventh-kind-'));
  for (const part of ['src', 'bin', 'schemas', 'package.json', 'tsconfig.json']) cpSync(join(root, part), join(copy, part), { recursive: true });
  cpSync(join(root, 'test/target/fixtures/workServer.mjs'), join(copy, 'workServer.mjs'));
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  mkdirSync(join(copy, 'src/targets/nodescript'));
  writeFileSync(join(copy, 'src/targets/nodescript/kind.ts'), NODE_SCRIPT_KIND);
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('a seventh kind of target is one new folder of src/targets/', () => {
  it('is listed, checked end to end (a valid report with its finding), refuses a flag it does not take, and replays', () => {
    expect(mcpSim(['check', '--help']).stdout).toContain('node:<file>[#arg,...]');

    const json = join(copy, 'report.json');
    const out = join(copy, 'repro');
    const run = mcpSim(['check', 'node:workServer.mjs#--fault,total-changes', '--runs', '4', '--rate-runs', '1', '--no-shrink', '--out', out, '--json', json]);
    expect(run.status, run.stderr).toBe(1);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { target: { kind: string; argument: string[] }; findings: { invariant: string }[] };
    expect(validate(report) ? 'valid' : validate.errors()).toBe('valid');
    expect(report.target).toMatchObject({ kind: 'nodescript', argument: ['node:workServer.mjs#--fault,total-changes'] });
    expect(report.findings.map((f) => f.invariant)).toContain('progress.total-stable');

    const refused = mcpSim(['check', 'node:workServer.mjs', '--seeds', '1..2']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('--seeds does not apply to a Node script');

    const file = readdirSync(out).find((f) => f.includes('progress.total-stable'));
    expect(file).toBeDefined();
    const replay = mcpSim(['replay', join(out, file!), '--rate-runs', '1']);
    // The finding it should show reproduced (a SHOULD finding: exit 0; 3 would be "not reproduced").
    expect(replay.stdout + replay.stderr).toContain('reproduced: progress.total-stable');
    expect(replay.status).toBe(0);
  });

  it('type-checks against the seam with nothing else changed', () => {
    writeFileSync(join(copy, 'tsconfig.json'), JSON.stringify({ extends: join(root, 'tsconfig.json'), include: ['src'] }));
    const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', 'tsconfig.json'], { cwd: copy, encoding: 'utf8', timeout: 240_000 });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });
});
