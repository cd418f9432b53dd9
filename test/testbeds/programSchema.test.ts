import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ajvValidator, type ArgumentValidator } from '../../src/workload/ajvValidator.ts';
import { testbedProgramArbitrary } from '../../src/targets/testbed/testbedCases.ts';
import { FIXED_PROGRAMS } from './fixedPrograms.ts';

/**
 * schemas/program.schema.json, the arguments of a test bed's `run` tool (testbeds/PROGRAM.md), is
 * the shape the code sends: every generated program and every fixed one validates, a malformed one
 * does not. And each bed's own advertised inputSchema, read from its source (no build), accepts
 * every valid argument set and names no property the contract does not.
 */
const repo = (path: string) => new URL(`../../${path}`, import.meta.url);
const read = (path: string) => readFileSync(repo(path), 'utf8');
const schema = JSON.parse(read('schemas/program.schema.json')) as { properties: Record<string, unknown> };
const valid = ajvValidator(schema);

/** 500 generated programs, as the campaign sends them: with a call label. */
const SAMPLES = fc.sample(testbedProgramArbitrary, { seed: 20_260_601, numRuns: 500 }).map((program, k) => ({ program, call: `c${k + 1}` }));

const expectValid = (validator: ArgumentValidator, value: unknown) => expect(validator(value) ? 'valid' : `${validator.errors()} in ${JSON.stringify(value)}`).toBe('valid');

describe('schemas/program.schema.json', () => {
  it('validates 500 programs of testbedProgramArbitrary', () => {
    for (const args of SAMPLES) expectValid(valid, args);
  });

  it('validates every program of test/testbeds/fixedPrograms.ts, with and without a call label', () => {
    for (const { program } of FIXED_PROGRAMS) {
      expectValid(valid, { program, call: 'c1' });
      expectValid(valid, { program });
    }
  });

  it('validates a program with every optional field the contract names', () => {
    expectValid(valid, {
      program: {
        steps: [
          { kind: 'progress', progress: 0.5, total: 1, message: 'half' },
          { kind: 'sleep', ms: 0 },
          { kind: 'call', method: 'sampling/createMessage', timeoutMs: 100 },
          { kind: 'call', method: 'elicitation/create' },
        ],
        end: { kind: 'error', code: -32_000, message: 'scripted failure' },
        onAbort: 'swallow',
        faults: { progressToken: 'invent' },
      },
      call: 'c1',
    });
  });

  const ok = { steps: [], end: { kind: 'result' }, onAbort: 'honour' };
  it.each([
    ['no program', { call: 'c1' }],
    ['a program without end', { program: { steps: [], onAbort: 'honour' } }],
    ['an unknown abort policy', { program: { ...ok, onAbort: 'obey' } }],
    ['an unknown step kind', { program: { ...ok, steps: [{ kind: 'yield' }] } }],
    ['a sleep without ms', { program: { ...ok, steps: [{ kind: 'sleep' }] } }],
    ['a sleep of fractional ms', { program: { ...ok, steps: [{ kind: 'sleep', ms: 1.5 }] } }],
    ['a progress whose progress is a string', { program: { ...ok, steps: [{ kind: 'progress', progress: '1' }] } }],
    ['a call of tools/call (a client request, not one a handler sends)', { program: { ...ok, steps: [{ kind: 'call', method: 'tools/call' }] } }],
    ['an error end without code', { program: { ...ok, end: { kind: 'error' } } }],
    ['an unknown end', { program: { ...ok, end: { kind: 'crash' } } }],
    ['a misspelt field (timeout for timeoutMs)', { program: { ...ok, steps: [{ kind: 'call', method: 'roots/list', timeout: 5 }] } }],
    ['a fault no test bed interprets', { program: { ...ok, faults: { leakInterval: true } } }],
    ['a numeric call label', { program: ok, call: 1 }],
    ['an argument the tool does not take', { program: ok, call: 'c1', extra: true }],
  ])('rejects %s', (_name, args) => {
    expect(valid(args)).toBe(false);
  });

  it('is linked from testbeds/PROGRAM.md', () => {
    expect(read('testbeds/PROGRAM.md')).toContain('(../schemas/program.schema.json)');
  });
});

/** Each bed's advertised `run` inputSchema, as its source writes it. */
const ADVERTISED: Record<string, () => unknown> = {
  go: () => JSON.parse(match('testbeds/go/main.go', /InputSchema:\s*json\.RawMessage\(`([^`]*)`\)/)),
  python: () => JSON.parse(match('testbeds/python/server.py', /"inputSchema":\s*(\{.*\}),\s*$/m)),
  typescript: () => JSON.parse(jsLiteralToJson(match('testbeds/typescript/server.mjs', /inputSchema:\s*(\{.*\}),\s*$/m))),
  // A Java string constant: its escapes are JSON's, so it parses as a JSON string, then as JSON.
  java: () => JSON.parse(JSON.parse(match('testbeds/java/src/main/java/dev/mcpsim/sdktestbed/SdkTestbed.java', /String SCHEMA\s*=\s*("(?:[^"\\]|\\.)*");/)) as string),
  // The high layer's is what schemars derives from RunArgs; the low layer writes its own.
  rust: () => schemarsSchema(match('testbeds/rust/src/high.rs', /pub struct RunArgs\s*\{([^}]*)\}/)),
  'rust (low layer)': () => JSON.parse(match('testbeds/rust/src/low.rs', /let schema = json!\((\{.*\})\);/)),
};

function match(path: string, pattern: RegExp): string {
  const found = pattern.exec(read(path))?.[1];
  if (found === undefined) throw new Error(`${path}: no match for ${pattern}: the run tool's inputSchema moved; update ADVERTISED in this test to read it where it is now`);
  return found;
}

/** A one-line JavaScript object literal of plain keys and single-quoted strings, as JSON. */
function jsLiteralToJson(literal: string): string {
  return literal.replace(/'/g, '"').replace(/([{,]\s*)([A-Za-z_$][\w$]*)\s*:/g, '$1"$2":');
}

/**
 * What schemars derives for the Rust bed's `RunArgs`: a field of type `Value` takes anything, an
 * `Option<String>` a string or null and is not required, a `String` is a required string.
 */
function schemarsSchema(body: string): unknown {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [, name, type] of body.matchAll(/^\s*(?:pub\s+)?(\w+):\s*([\w<>]+),?\s*$/gm)) {
    if (type === 'Value') properties[name!] = true;
    else if (type === 'Option<String>') properties[name!] = { type: ['string', 'null'] };
    else if (type === 'String') properties[name!] = { type: 'string' };
    else throw new Error(`testbeds/rust/src/high.rs: RunArgs field ${name}: ${type} is a type this test does not map to a schema; add it to schemarsSchema`);
    if (!type!.startsWith('Option<')) required.push(name!);
  }
  return { type: 'object', properties, required };
}

describe("each test bed's advertised run inputSchema", () => {
  it.each(Object.keys(ADVERTISED))('%s: accepts every valid argument set and names only the contract\'s arguments', (language) => {
    const advertised = ADVERTISED[language]!() as { type?: unknown; properties?: Record<string, unknown> };
    expect(advertised.type).toBe('object');
    expect(advertised.properties).toHaveProperty('program');
    expect(Object.keys(advertised.properties ?? {}).filter((p) => !(p in schema.properties))).toEqual([]);
    const bed = ajvValidator(advertised);
    for (const args of SAMPLES) expectValid(bed, args);
    for (const { program } of FIXED_PROGRAMS) expectValid(bed, { program });
  });
});
