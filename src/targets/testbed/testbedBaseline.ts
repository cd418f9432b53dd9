import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASELINES_DIR } from '../../util/projectPaths.ts';
import type { InvariantId } from '../../model/invariants.ts';
import { writeFileAtomic } from '../../util/atomicWrite.ts';
import type { Plan } from '../../real/plan.ts';
import type { SdkTestbedLanguage, SdkTestbedTransport } from './sdkTestbed.ts';
import type { RealBaseline } from '../Target.ts';
import { shapeKey } from '../../workload/shape.ts';
import { planShape } from '../../workload/planShape.ts';

/** One known finding of an SDK release on one transport, with the minimal case that showed it. */
export interface TestbedBaselineEntry {
  readonly invariant: InvariantId;
  readonly transport: SdkTestbedTransport;
  readonly message: string;
  readonly minimal: Plan;
  readonly rate: { readonly hits: number; readonly runs: number };
}

/** The known findings of one SDK release's test bed (`check --target L --sdk-version V --update-baseline` writes it). */
export interface TestbedBaseline {
  readonly kind: 'testbed-baseline';
  readonly language: SdkTestbedLanguage;
  readonly sdk: string;
  readonly version: string;
  /** The command that wrote each transport's entries. */
  readonly commands: { readonly [transport: string]: string };
  readonly entries: readonly TestbedBaselineEntry[];
}

/** `properties/baselines/testbeds/<language>@<version>.json`: one file per (SDK, release), every transport in it. */
export function testbedBaselinePath(language: SdkTestbedLanguage, version: string): string {
  return join(BASELINES_DIR, 'testbeds', `${language}@${version}.json`);
}

/** The baseline of a release, or undefined when it has none yet. */
export function loadTestbedBaseline(language: SdkTestbedLanguage, version: string): TestbedBaseline | undefined {
  const file = testbedBaselinePath(language, version);
  if (!existsSync(file)) return undefined;
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as TestbedBaseline;
  if (parsed.kind !== 'testbed-baseline' || parsed.language !== language || parsed.version !== version || !Array.isArray(parsed.entries)) {
    throw new Error(`loadTestbedBaseline: ${file} is not the test-bed baseline of ${language} ${version}`);
  }
  return parsed;
}

/**
 * The release's baseline as the campaign reads it: each entry on `transport` a known cause (its
 * invariant, the transport, the features of its minimal case), and how to write a new one.
 */
export function testbedBaselineOf(release: { readonly language: SdkTestbedLanguage; readonly sdk: string; readonly version: string }, transport: SdkTestbedTransport): RealBaseline {
  const existing = loadTestbedBaseline(release.language, release.version);
  const entries = existing?.entries.filter((e) => e.transport === transport) ?? [];
  return {
    known: entries.map((e) => ({ invariant: e.invariant, variant: transport, shape: shapeKey(planShape(e.minimal)) })),
    summary: existing ? `${entries.length} known finding(s) on ${transport} (${testbedBaselinePath(release.language, release.version)})` : 'none yet (every finding is new)',
    write: (findings, command) => updateTestbedBaseline(existing, release, transport, findings as readonly TestbedBaselineFinding[], command),
  };
}

/** A confirmed finding a baseline keeps: its invariant, message, minimal case and rate. */
export interface TestbedBaselineFinding {
  readonly invariant: InvariantId;
  readonly message: string;
  readonly minimal: Plan;
  readonly rate: { readonly hits: number; readonly runs: number };
}

/**
 * The baseline with `transport`'s entries replaced by the confirmed `findings` of a campaign
 * (the other transports' kept), written atomically; returns its file.
 */
export function updateTestbedBaseline(
  existing: TestbedBaseline | undefined,
  release: { readonly language: SdkTestbedLanguage; readonly sdk: string; readonly version: string },
  transport: SdkTestbedTransport,
  findings: readonly TestbedBaselineFinding[],
  command: string,
): string {
  const kept = (existing?.entries ?? []).filter((e) => e.transport !== transport);
  const fresh = findings.map((f): TestbedBaselineEntry => ({ invariant: f.invariant, transport, message: f.message, minimal: f.minimal, rate: f.rate }));
  const baseline: TestbedBaseline = {
    kind: 'testbed-baseline',
    ...release,
    commands: { ...existing?.commands, [transport]: command },
    entries: [...kept, ...fresh].sort((a, b) => a.transport.localeCompare(b.transport) || a.invariant.localeCompare(b.invariant)),
  };
  const file = testbedBaselinePath(release.language, release.version);
  writeFileAtomic(file, `${JSON.stringify(baseline, null, 2)}\n`, { mkdir: true });
  return file;
}
