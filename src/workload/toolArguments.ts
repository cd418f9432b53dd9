import fc from 'fast-check';
import type { ToolInfo } from '../sdk/SdkAdapter.ts';
import type { JsonValue } from '../util/json.ts';
import { messageOf } from '../util/errors.ts';
import type { FuzzTool, ToolArguments } from './index.ts';
import { ajvValidator } from './ajvValidator.ts';
import { schemaArbitrary, type JsonSchema } from './jsonSchema/index.ts';

/** Fixed argument sets by tool name (`--args FILE`): those tools are called with these only. */
export type FixedArguments = { readonly [tool: string]: readonly ToolArguments[] };

/** A tool left out of the campaign, and why (the report lists it; the other tools are still fuzzed). */
export interface SkippedTool {
  readonly name: string;
  readonly reason: string;
}

/** Thrown for fixed arguments that are not what a tool accepts: the user's file is wrong. */
export class FixedArgumentsError extends Error {
  override name = 'FixedArgumentsError';
}

/** Draws a few values now, so that a filter that cannot find values fails here and not in the middle of a campaign. */
const PROBE_SAMPLES = 20;

const isObject = (v: unknown): v is ToolArguments => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The arguments each listed tool is called with: generated from its input schema (`schemaArbitrary`)
 * and checked with ajv, or the fixed sets `fixed` gives it. A tool whose schema cannot be
 * generated is skipped with its reason.
 */
export function planTools(tools: readonly ToolInfo[], fixed: FixedArguments = {}): { readonly fuzzable: FuzzTool[]; readonly skipped: SkippedTool[] } {
  const fuzzable: FuzzTool[] = [];
  const skipped: SkippedTool[] = [];
  for (const name of Object.keys(fixed)) {
    if (!tools.some((t) => t.name === name)) throw new FixedArgumentsError(`mcp-sim check: --args names tool ${JSON.stringify(name)}, which the server does not list (it lists ${tools.map((t) => t.name).join(', ')}).`);
  }
  for (const tool of tools) {
    let valid: ReturnType<typeof ajvValidator>;
    try {
      valid = ajvValidator(tool.inputSchema);
    } catch (error) {
      skipped.push({ name: tool.name, reason: `ajv cannot compile its input schema: ${messageOf(error)}` });
      continue;
    }
    const sets = fixed[tool.name];
    if (sets) {
      sets.forEach((args, i) => {
        if (!isObject(args) || !valid(args)) throw new FixedArgumentsError(`mcp-sim check: --args ${tool.name}[${i}] is not valid for the tool's input schema: ${valid.errors()}`);
      });
      if (sets.length > 0) fuzzable.push({ name: tool.name, arguments: fc.constantFrom(...sets) });
      continue;
    }
    try {
      const generated = schemaArbitrary(tool.inputSchema as JsonSchema)
        .filter((v) => isObject(v) && valid(v))
        .map((v) => v as { [key: string]: JsonValue });
      fc.sample(generated, { seed: 0, numRuns: PROBE_SAMPLES });
      fuzzable.push({ name: tool.name, arguments: generated });
    } catch (error) {
      skipped.push({ name: tool.name, reason: `its input schema cannot be generated: ${messageOf(error)}` });
    }
  }
  return { fuzzable, skipped };
}
