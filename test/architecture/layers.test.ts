import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const depcruise = join(root, 'node_modules', '.bin', 'depcruise');
const config = join(root, '.dependency-cruiser.cjs');
const fixture = join(root, 'test', 'architecture', 'fixture');

/** Runs the layer rule the way `.ci/run` does, from `cwd`, over `paths`. */
function cruise(cwd: string, paths: string[], outputType: 'json' | 'err') {
  return spawnSync(depcruise, [...paths, '--config', config, '--output-type', outputType], { cwd, encoding: 'utf8' });
}

function violations(cwd: string, paths: string[]): string[] {
  const run = cruise(cwd, paths, 'json');
  const report = JSON.parse(run.stdout) as { summary: { violations: { rule: { name: string }; from: string }[] } };
  return report.summary.violations.map((v) => `${v.rule.name} ${v.from}`).sort();
}

describe('Layers: the dependency rule of .dependency-cruiser.cjs', () => {
  it('should fail on a wrong import: the simulator importing the model, the SDK by value outside src/sdk, a target judging itself, the real clock opening a target', () => {
    expect(violations(fixture, ['src'])).toEqual([
      'real-knows-no-verdicts src/real/opensATarget.ts',
      'sdk-by-value-outside-adapter src/sim/importsTheSdkByValue.ts',
      'sim-knows-no-verdicts src/sim/importsTheModel.ts',
      'targets-know-no-campaigns src/targets/process/judgesItself.ts',
      'targets-sit-under-the-campaign src/real/opensATarget.ts',
    ]);
    const run = cruise(fixture, ['src'], 'err');
    expect(run.status).not.toBe(0);
    expect(run.stdout).toContain('sim-knows-no-verdicts');
  });

  it('should pass on the repository itself', () => {
    const run = cruise(root, ['src', 'bench', 'test', 'properties'], 'err');
    expect(run.stdout + run.stderr).toContain('no dependency violations');
    expect(run.status).toBe(0);
  });
});
