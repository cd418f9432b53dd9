/**
 * ajv, the validator the MCP SDK itself checks tool input with: every generated or fixed argument
 * set passes it before a run uses it, so a call the server rejects is never the generator's doing.
 */
import AjvModule from 'ajv';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type AjvClass = typeof AjvModule.default;
const interop = <T>(m: T): T => (m as { default?: T }).default ?? m;
const Ajv = interop(AjvModule) as unknown as AjvClass;
const Ajv2020 = interop(Ajv2020Module) as unknown as AjvClass;
const addFormats = interop(addFormatsModule) as unknown as (ajv: InstanceType<AjvClass>) => void;

/** True when the value is valid; `errors` says why not, for messages. */
export interface ArgumentValidator {
  (value: unknown): boolean;
  errors(): string;
}

/** The dialect a tool's schema declares (`$schema`); MCP's default is 2020-12. */
function dialectOf(schema: unknown): '2020-12' | 'draft-07' {
  const declared = typeof schema === 'object' && schema !== null ? (schema as { $schema?: unknown }).$schema : undefined;
  return typeof declared === 'string' && /draft-0[4-7]/.test(declared) ? 'draft-07' : '2020-12';
}

/** An ajv validator of a tool's input schema (non-strict: MCP schemas carry annotations and unknown formats). Throws when ajv cannot compile it. */
export function ajvValidator(schema: unknown): ArgumentValidator {
  const ajv = dialectOf(schema) === '2020-12' ? new Ajv2020({ strict: false, logger: false }) : new Ajv({ strict: false, logger: false });
  addFormats(ajv);
  const validate = ajv.compile(schema as object | boolean);
  return Object.assign((value: unknown) => validate(value) === true, { errors: () => ajv.errorsText(validate.errors) });
}
