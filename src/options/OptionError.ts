/** Where an option's value came from, so the error can name it the way its author wrote it. */
export interface OptionName {
  /** The field in the options object, e.g. `workload.actionsMax`. */
  readonly option: string;
  /** The command-line flag that sets it, e.g. `--actions-max`, when there is one. */
  readonly flag?: string;
  /** The environment variable that sets it, e.g. `MCP_SIM_RUNS`, when the value came from there. */
  readonly env?: string;
}

/**
 * A rejected option value or combination. The message names the option (as flag, field or
 * environment variable), the value, the rule it breaks and the fix, so a user need not read code.
 */
export class OptionError extends Error {
  constructor(
    readonly optionName: OptionName,
    readonly value: unknown,
    readonly rule: string,
    readonly fix: string,
  ) {
    super(`${label(optionName)} ${show(value)}: ${rule}. Fix: ${fix}.`);
    this.name = 'OptionError';
  }
}

function label(n: OptionName): string {
  if (n.env) return `${n.env} (environment, for ${n.option})`;
  return n.flag ? `${n.flag} (${n.option})` : n.option;
}

function show(value: unknown): string {
  return value === undefined ? 'unset' : `= ${JSON.stringify(value)}`;
}
