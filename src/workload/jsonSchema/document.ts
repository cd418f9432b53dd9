/**
 * One schema document: its root, dialect and options, `$ref` resolution inside it, and the
 * canonical form of each subschema (one spelling per keyword, whatever the dialect), which both
 * the generator and the validator read.
 */
import { SchemaArbitraryError } from './error.ts';
import { jsonEqual } from './json.ts';
import { IGNORED, SUPPORTED, UNSUPPORTED } from './keywords.ts';
import { childPointer, pointerTokens } from './pointer.ts';
import { isSchema, isSchemaObject } from './read.ts';
import { SIMPLE_TYPES, type Dialect, type JsonSchema, type SchemaArbitraryOptions, type SchemaObject, type SimpleType } from './types.ts';

export type ResolvedOptions = Required<SchemaArbitraryOptions>;

export const defaults: ResolvedOptions = {
  dialect: '2020-12',
  maxRecursion: 3,
  defaultMaxItems: 5,
  maxExtraProperties: 2,
  freeDepth: 2,
  maxFilterRejections: 1000,
  unknownKeywords: 'ignore',
};

/** A subschema found by `$ref`, with where it lives (for error messages and recursion counting). */
export interface Resolved {
  readonly schema: JsonSchema;
  readonly pointer: string;
}

export class SchemaDocument {
  readonly dialect: Dialect;
  readonly options: ResolvedOptions;
  private readonly canonicalCache = new WeakMap<SchemaObject, SchemaObject>();
  private readonly anchors = new Map<string, Resolved>();
  private readonly rootId: string | undefined;

  constructor(
    readonly root: JsonSchema,
    options: SchemaArbitraryOptions = {},
  ) {
    this.options = { ...defaults, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
    this.dialect = dialectOf(root) ?? this.options.dialect;
    this.rootId = isSchemaObject(root) && typeof root.$id === 'string' ? root.$id.replace(/#$/, '') : undefined;
    this.indexAnchors(root, '');
  }

  /** The subschema a `$ref` names: `#/json/pointer`, `#anchor`, or either after the root's `$id`. */
  resolve(ref: string, pointer: string): Resolved {
    let fragment = ref;
    if (this.rootId !== undefined && ref.startsWith(this.rootId)) fragment = ref.slice(this.rootId.length);
    if (fragment === '') fragment = '#';
    if (!fragment.startsWith('#')) {
      throw new SchemaArbitraryError('unsupported', pointer, '$ref', `only references inside the document are supported, got ${JSON.stringify(ref)}`);
    }
    const decoded = decodeURIComponent(fragment.slice(1));
    const tokens = pointerTokens(decoded);
    if (tokens === undefined) {
      const anchored = this.anchors.get(decoded);
      if (anchored === undefined) throw new SchemaArbitraryError('invalid-schema', pointer, '$ref', `no anchor ${JSON.stringify(decoded)} in the document`);
      return anchored;
    }
    let node: unknown = this.root;
    for (const token of tokens) {
      node = Array.isArray(node) ? node[Number(token)] : isSchemaObject(node) ? node[token] : undefined;
    }
    if (!isSchema(node)) throw new SchemaArbitraryError('invalid-schema', pointer, '$ref', `${JSON.stringify(ref)} does not point at a schema`);
    return { schema: node, pointer: decoded };
  }

  /**
   * The canonical form of a schema object: `const` as a one-value `enum`, draft-07 tuple `items`
   * as `prefixItems`, `dependencies` split, a string `type` as an array, annotations dropped.
   * Throws on keywords that constrain values but are not implemented.
   */
  canonical(schema: SchemaObject, pointer: string): SchemaObject {
    const cached = this.canonicalCache.get(schema);
    if (cached !== undefined) return cached;
    const out: Record<string, unknown> = {};
    for (const [keyword, value] of Object.entries(schema)) {
      if (UNSUPPORTED.has(keyword)) throw new SchemaArbitraryError('unsupported', pointer, keyword, 'this keyword is not implemented');
      if (IGNORED.has(keyword)) continue;
      if (!SUPPORTED.has(keyword)) {
        if (this.options.unknownKeywords === 'throw') throw new SchemaArbitraryError('unsupported', pointer, keyword, 'unknown keyword');
        continue;
      }
      out[keyword] = value;
    }
    if (typeof out.exclusiveMinimum === 'boolean' || typeof out.exclusiveMaximum === 'boolean') {
      const keyword = typeof out.exclusiveMinimum === 'boolean' ? 'exclusiveMinimum' : 'exclusiveMaximum';
      throw new SchemaArbitraryError('unsupported', pointer, keyword, 'the boolean form (draft-04) is not supported; use a number');
    }
    if (out.type !== undefined) {
      const types = typeof out.type === 'string' ? [out.type] : out.type;
      if (!Array.isArray(types) || !types.every((t): t is SimpleType => SIMPLE_TYPES.includes(t as SimpleType))) {
        throw new SchemaArbitraryError('invalid-schema', pointer, 'type', `expected one of ${SIMPLE_TYPES.join(', ')} or an array of them`);
      }
      out.type = [...new Set(types)];
    }
    if (out.enum !== undefined && !Array.isArray(out.enum)) throw new SchemaArbitraryError('invalid-schema', pointer, 'enum', 'expected an array');
    if ('const' in out) {
      const constant = out.const;
      delete out.const;
      // const and enum together: the values in both.
      out.enum = out.enum === undefined ? [constant] : (out.enum as unknown[]).filter((value) => jsonEqual(value, constant));
    }
    if (Array.isArray(out.items)) {
      out.prefixItems = out.items;
      if (out.additionalItems === undefined) delete out.items;
      else out.items = out.additionalItems;
    }
    delete out.additionalItems;
    if (out.dependencies !== undefined) {
      if (!isSchemaObject(out.dependencies)) throw new SchemaArbitraryError('invalid-schema', pointer, 'dependencies', 'expected an object');
      const required: Record<string, unknown> = { ...((out.dependentRequired as object | undefined) ?? {}) };
      const schemas: Record<string, unknown> = { ...((out.dependentSchemas as object | undefined) ?? {}) };
      for (const [key, value] of Object.entries(out.dependencies)) (Array.isArray(value) ? required : schemas)[key] = value;
      delete out.dependencies;
      if (Object.keys(required).length > 0) out.dependentRequired = required;
      if (Object.keys(schemas).length > 0) out.dependentSchemas = schemas;
    }
    if (out.if === undefined) {
      delete out.then;
      delete out.else;
    }
    if (out.contains === undefined) {
      delete out.minContains;
      delete out.maxContains;
    }
    // draft-07: `$ref` replaces its siblings.
    if (out.$ref !== undefined && this.dialect === 'draft-07') for (const keyword of Object.keys(out)) if (keyword !== '$ref') delete out[keyword];
    this.canonicalCache.set(schema, out);
    return out;
  }

  private indexAnchors(node: unknown, pointer: string): void {
    if (Array.isArray(node)) {
      node.forEach((child, i) => this.indexAnchors(child, childPointer(pointer, i)));
      return;
    }
    if (!isSchemaObject(node)) return;
    if (typeof node.$anchor === 'string') this.anchors.set(node.$anchor, { schema: node, pointer });
    if (typeof node.$id === 'string' && node.$id.startsWith('#')) this.anchors.set(node.$id.slice(1), { schema: node, pointer });
    for (const [key, child] of Object.entries(node)) {
      if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') continue;
      this.indexAnchors(child, childPointer(pointer, key));
    }
  }
}

function dialectOf(root: JsonSchema): Dialect | undefined {
  if (!isSchemaObject(root) || typeof root.$schema !== 'string') return undefined;
  return /draft-0[4-7]/.test(root.$schema) ? 'draft-07' : '2020-12';
}
