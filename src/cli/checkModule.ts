import { resolveFuzzOptions } from '../options/index.ts';
import type { SpecOf } from '../targets/Target.ts';
import type { CheckOpts } from './front.ts';

/**
 * `check ./server.ts`: a user's server module in process, its tools called with generated
 * arguments in virtual time, findings told in the author's terms (src/cli/fuzz.ts presents them).
 */
export async function checkModule(spec: SpecOf<'module'>, opts: CheckOpts): Promise<number> {
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const options = resolveFuzzOptions({
    module: spec.module,
    ...(typeof opts.runs === 'number' && { runs: opts.runs }),
    ...(typeof opts.seed === 'number' && { seed: opts.seed }),
    ...(str(opts.args) !== undefined && { argsFile: str(opts.args)! }),
    ...(spec.config !== undefined && { config: JSON.stringify(spec.config) }),
    ...(typeof opts.shrink === 'boolean' && { shrink: opts.shrink }),
    ...(str(opts.failOn) !== undefined && { failOn: str(opts.failOn)! }),
    ...(str(opts.json) !== undefined && { jsonFile: str(opts.json)! }),
    ...(str(opts.junit) !== undefined && { junitFile: str(opts.junit)! }),
    ...(str(opts.report) !== undefined && { markdownFile: str(opts.report)! }),
    ...(str(opts.out) !== undefined && { reproDir: str(opts.out)! }),
  });
  const tools = str(opts.tools)?.split(',').map((t) => t.trim()).filter(Boolean);
  const { fuzzCommand } = await import('./fuzz.ts');
  return fuzzCommand(options, { ...(tools && { tools }) });
}
