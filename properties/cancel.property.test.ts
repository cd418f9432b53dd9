import { describe, it } from 'vitest';
import { assertFamily, PROPERTY_RUNS, PROPERTY_SEED } from './support.ts';

describe(`cancel.*: no finding beyond the baseline (seed ${PROPERTY_SEED}, ${PROPERTY_RUNS} runs, memory + http)`, () => {
  it('holds over generated workloads and schedules', async () => {
    await assertFamily('cancel');
  });
});
