/**
 * The reference validator for the schema converter's tests: ajv (2020-12 or draft-07 by the
 * case's dialect) with ajv-formats' full formats. ajv-formats comes with the MCP SDK, which
 * validates tool input with it, so these are the checks a real server applies.
 */
import AjvModule from 'ajv';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type AjvClass = typeof AjvModule.default;
const interop = <T,>(m: T): T => ((m as { default?: T }).default ?? m);
const Ajv = interop(AjvModule) as unknown as AjvClass;
const Ajv2020 = interop(Ajv2020Module) as unknown as AjvClass;
const addFormats = interop(addFormatsModule) as unknown as (ajv: InstanceType<AjvClass>) => void;

export type Validate = (value: unknown) => boolean;

/** An ajv validator of `schema` (non-strict: the corpus has MCP-style annotations and unknown formats). */
export function ajvValidator(schema: unknown, dialect: '2020-12' | 'draft-07' = '2020-12'): Validate {
  const ajv = dialect === '2020-12' ? new Ajv2020({ strict: false, allErrors: false, logger: false }) : new Ajv({ strict: false, allErrors: false, logger: false });
  addFormats(ajv);
  const validate = ajv.compile(schema as object | boolean);
  return (value) => validate(value) === true;
}
