import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ACTIONS_MAX, DEFAULT_CAMPAIGN_RUNS, DEFAULT_FAIL_ON, DEFAULT_FUZZ_FAIL_ON, DEFAULT_FUZZ_RUNS,
  DEFAULT_PROCESS_RUNS, DEFAULT_CLIENT_RUNS, DEFAULT_CAMPAIGN_SEED, DEFAULT_BASELINE_RUNS, DEFAULT_REPRO_DIR } from '../../src/options/index.ts';
import { runMain } from './runMain.ts';

describe('mcp-sim usage', () => {
  it('--help lists the commands and exits 0', async () => {
    const run = await runMain(['--help']);
    expect(run.code).toBe(0);
    for (const command of ['check', 'replay', 'baseline', 'rogue']) expect(run.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
  });

  it('--version prints the name and version and exits 0', async () => {
    const run = await runMain(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toMatch(/^mcp-sim \d+\.\d+\.\d+$/);
  });

  it('off a terminal, progress is a line every 10 % that names the invariants broken so far', async () => {
    const run = await runMain(['check', '--runs', '20', '--no-shrink']);
    const lines = run.stderr.split('\n').filter((l) => l.startsWith('runs: '));
    expect(lines.at(-1)).toMatch(/^runs: 20\/20, \d+ invariant\(s\) broken$/);
    expect(lines.length).toBeLessThanOrEqual(11);
  });

  it('colours only on a terminal: a log (CI=true included) gets plain text, FORCE_COLOR brings colour back', () => {
    const run = (env: Record<string, string>) =>
      spawnSync(process.execPath, ['bin/mcp-sim.js', 'check', '--runs', '3', '--no-shrink'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '', FORCE_COLOR: '', ...env } });
    const plainRun = spawnSync(process.execPath, ['bin/mcp-sim.js', 'check', '--runs', '3', '--no-shrink'], {
      encoding: 'utf8',
      env: Object.fromEntries(Object.entries({ ...process.env, CI: 'true' }).filter(([k]) => k !== 'NO_COLOR' && k !== 'FORCE_COLOR')),
    });
    expect(plainRun.status).toBe(0);
    expect(plainRun.stdout).not.toMatch(/\u001b\[/);
    expect(run({ FORCE_COLOR: '1' }).stdout).toMatch(/\u001b\[/);
  });

  it('--quiet prints only the verdict line, and gives the settings back after the command', async () => {
    const run = await runMain(['check', '--runs', '10', '--no-shrink', '--quiet']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual([expect.stringMatching(/^PASS: no violation beyond the baseline of /)]);
    expect(run.stderr).toBe('');
    const loud = await runMain(['check', '--runs', '10', '--no-shrink']);
    expect(loud.lines.length).toBeGreaterThan(10);
  });

  it('check --help shows every flag with the defaults of src/options/defaults.ts', async () => {
    const run = await runMain(['check', '--help']);
    expect(run.code).toBe(0);
    const help = run.stdout.replace(/\s+/g, ' ');
    for (const flag of ['--runs', '--seed', '--profiles', '--actions-max', '--steps-max', '--no-server-requests', '--no-faults', '--no-shrink', '--self-check', '--json', '--out']) {
      expect(help).toContain(flag);
    }
    expect(help).toContain(`(default: ${DEFAULT_CAMPAIGN_RUNS} on an SDK release, ${DEFAULT_FUZZ_RUNS} on a module, ${DEFAULT_PROCESS_RUNS} in real time, ${DEFAULT_CLIENT_RUNS} generated cases on a client (one pass over its scenarios with --scenario); env MCP_SIM_RUNS)`);
    expect(help).toContain(`(default: ${DEFAULT_FAIL_ON} on an SDK release, test bed or client; ${DEFAULT_FUZZ_FAIL_ON} on your own server: a module, a process, a URL)`);
    expect(help).toContain(`(default: ${DEFAULT_CAMPAIGN_SEED}; env MCP_SIM_SEED)`);
    expect(help).toContain(`most caller actions per scenario (default: ${DEFAULT_ACTIONS_MAX})`);
    expect(help).toContain(`(default: ${DEFAULT_REPRO_DIR})`);
  });

  it('replay --help and baseline --help show the workload flags too', async () => {
    const replay = await runMain(['replay', '--help']);
    expect(replay.code).toBe(0);
    for (const flag of ['--seed', '--case', '--profiles', '--actions-max', '--steps-max', '--no-faults', '--baseline', '--mermaid']) expect(replay.stdout).toContain(flag);
    const baseline = await runMain(['baseline', '--help']);
    expect(baseline.stdout.replace(/\s+/g, ' ')).toContain(`(default: ${DEFAULT_BASELINE_RUNS})`);
  });

  it.each([
    [['check', '--bogus'], /unknown option '--bogus'/],
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['check', '--runs', 'many'], /--runs takes a whole number, got "many"/],
    [['check', '--runs', '0'], /--runs \(runs\) = 0: must be a whole number from 1 to \d+/],
    [['check', '--seed', '99999999999'], /--seed \(seed\) = 99999999999: must be a whole number from 0 to 4294967295/],
    [['check', '--actions-max', '0'], /--actions-max \(workload\.actionsMax\) = 0: must be a whole number from 1 to 64\. Fix: .*default 6/],
    [['check', '--profiles', 'memory,tcp'], /--profiles \(workload\.profiles\) = \["memory","tcp"\]: has unknown profile\(s\) "tcp".*Fix: name one or more of memory, http/],
    [['check', '--profiles', 'http,http'], /--profiles .* names a profile twice/],
    [['replay', '--seed', '3'], /--case \(caseIndex\) unset: must come with --seed/],
    [['replay'], /the case to replay unset: must be named\. Fix: give a replay file, or --seed/],
    [['replay', 'some.json', '--seed', '1', '--case', '2'], /must be named one way, not several/],
    [['replay', 'some.json', '--actions-max', '3'], /--actions-max \(workload\).*only applies to --seed\/--case/],
    [['baseline', '--table', '--update'], /--table \(table\) = true: .* Fix: give --table or --update, not both/],
  ])('%j exits 2 with a message naming the flag', async (args, message) => {
    const run = await runMain(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  it('rejects a bad MCP_SIM_RUNS naming the variable, and an explicit --runs wins over it', async () => {
    const bad = await runMain(['check', '--seed', '1'], { MCP_SIM_RUNS: 'lots' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/MCP_SIM_RUNS \(environment, for runs\) = "lots": must be a whole number .* Fix: set MCP_SIM_RUNS to a whole number/);
    const seedEnv = await runMain(['check', '--runs', '1', '--no-shrink', '--profiles', 'memory', '--out', '/nonexistent'], { MCP_SIM_SEED: '77', MCP_SIM_RUNS: 'lots' });
    expect(seedEnv.lines[0]).toBe('mcp-sim check  seed=77');
    expect(seedEnv.lines).toContain('  runs          1');
  });
});
