import { BadTargetError } from '../real/connection.ts';
import { OptionError } from '../options/OptionError.ts';
import { SdkChoiceError } from '../sdk/install.ts';
import { TargetArgumentError } from '../targets/Target.ts';
import { FixedArgumentsError } from '../workload/toolArguments.ts';

/** Errors a user fixes by changing the command line: one line on stderr, exit 2. */
const USAGE_ERRORS = [TargetArgumentError, BadTargetError, OptionError, FixedArgumentsError, SdkChoiceError];

/** Prints a usage error's one line and gives exit 2; anything else goes on up. */
export function usageExit(error: unknown): number {
  if (!USAGE_ERRORS.some((E) => error instanceof E)) throw error;
  process.stderr.write(`${(error as Error).message}\n`);
  return 2;
}
