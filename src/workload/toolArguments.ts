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

/**
 * Which top-level arguments an input schema declares: its `properties` (and those of the
 * `allOf`/`anyOf`/`oneOf` members and a top-level `$ref` into `$defs`/`definitions`), and the
 * keys its `patternProperties` match. What it does not declare is what the generator added
 * because the schema allows more (`additionalProperties` unset): `planShrinks` drops those first.
 */
export function declaredArguments(schema: unknown): (key: string) => boolean {
  const names = new Set<string>();
  const patterns: RegExp[] = [];
  const root = isObject(schema) ? schema : {};
  const seen = new Set<unknown>();
  const visit = (s: unknown) => {
    if (!isObject(s) || seen.has(s)) return;
    seen.add(s);
    if (isObject(s.properties)) for (const k of Object.keys(s.properties)) names.add(k);
    if (isObject(s.patternProperties)) {
      for (const p of Object.keys(s.patternProperties)) {
        try {
          patterns.push(new RegExp(p, 'u'));
        } catch {
          // A pattern JavaScript cannot read declares nothing it could match.
        }
      }
    }
    for (const k of ['allOf', 'anyOf', 'oneOf'] as const) if (Array.isArray(s[k])) (s[k] as unknown[]).forEach(visit);
    const ref = typeof s.$ref === 'string' ? /^#\/(\$defs|definitions)\/(.+)$/.exec(s.$ref) : null;
    if (ref) {
      const defs = root[ref[1]!];
      if (isObject(defs)) visit(defs[ref[2]!]);
    }
  };
  visit(root);
  return (key) => names.has(key) || patterns.some((p) => p.test(key));
}
