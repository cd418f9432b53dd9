import { describe, expect, it } from 'vitest';
import { runScenario, type HandlerProgram } from '../../src/sim/index.ts';
import { cancelRace, twoProgressTool } from './fixtures.ts';

const escapes = async (faults: HandlerProgram['faults']) => {
  const run = await runScenario(cancelRace({ ...twoProgressTool, faults }));
  return run.trace.filter((e) => e.kind === 'escape');
};

describe('runScenario: escapes from the system under test are captured (harness.unhandled)', () => {
  it('records an unhandled rejection with the step that caused it, without crashing the harness', async () => {
    const found = await escapes({ unhandledRejection: true });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ source: 'unhandledRejection', error: expect.stringContaining('scripted unhandled rejection') });
    expect(found[0]!.step).toBeGreaterThan(0);
  });

  it('records an exception thrown from a timer callback', async () => {
    const found = await escapes({ throwInTimer: true });
    expect(found).toHaveLength(1);
    expect(found[0]!.error).toContain('scripted exception in a timer');
  });

  it('records nothing for a well-behaved handler', async () => {
    expect(await escapes(undefined)).toEqual([]);
  });
});
