import { createRequire } from 'node:module';
import type { Builder, TestCase, TestSuite } from 'junit-report-builder';
import { invariants, type InvariantId } from '../model/invariants.ts';
import type { MadeWith } from '../options/replayCaseCommand.ts';

// CommonJS with `module.exports = builder`, while its types declare an ES default export. Loaded by
// the first JUnit report (`--junit`), not by every command that imports a report writer: with its
// dependencies it takes about a tenth of a second.
let junit: Builder | undefined;
const junitBuilder = (): Builder => (junit ??= createRequire(import.meta.url)('junit-report-builder') as Builder);

/** Ids no campaign or exploration judges (the sandbox's own check): no test case of their own. */
const notJudged: ReadonlySet<InvariantId> = new Set<InvariantId>(['harness.globals-restored']);

/**
 * A new JUnit document with its one test suite, named `name`, carrying the properties every
 * mcp-sim report has (the SDK release and mcp-sim's version) after the command's own.
 */
export function junitSuite(name: string, seconds: number, madeWith: MadeWith, properties: Readonly<Record<string, string>>): { builder: Builder; suite: TestSuite } {
  const builder = junitBuilder().newBuilder();
  const suite = builder.testSuite().name(name).time(seconds);
  for (const [key, value] of Object.entries(properties)) suite.property(key, value);
  suite.property('sdk', `${madeWith.sdk.name}@${madeWith.sdk.version}`).property('mcp-sim', `${madeWith.tool.name}@${madeWith.tool.version}`);
  return { builder, suite };
}

/**
 * One test case per judged invariant of the catalogue (class `mcp-sim.<family>`, named by its
 * id), in catalogue order, handed to `judge` to fail, pass with output, or leave passing: so a
 * CI tool lists every property, those that held too.
 */
export function invariantCases(suite: TestSuite, judge: (id: InvariantId, testCase: TestCase) => void): void {
  for (const [id] of invariants) {
    if (notJudged.has(id)) continue;
    judge(id, suite.testCase().className(`mcp-sim.${id.slice(0, id.indexOf('.'))}`).name(id));
  }
}
