import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASELINES_DIR } from '../../util/projectPaths.ts';
import type { InvariantId } from '../../model/invariants.ts';
import { writeFileAtomic } from '../../util/atomicWrite.ts';
import type { Plan } from '../../real/plan.ts';
import type { SdkTestbedLanguage, SdkTestbedTransport } from './sdkTestbed.ts';
import { layerVariant, type TestbedLayer } from './languages.ts';
import { layerOfCase } from './testbedCases.ts';
import type { RealBaseline } from '../Target.ts';
import { shapeKey } from '../../workload/shape.ts';
import { planShape } from '../../workload/planShape.ts';

/** One known finding of an SDK release on one transport and layer, with the minimal case that showed it. */
export interface TestbedBaselineEntry {
  readonly invariant: InvariantId;
  readonly transport: SdkTestbedTransport;
  /** The interpreter that showed it (PROGRAM.md, "Layers"); absent: the low one (an entry from before beds had layers). */
  readonly layer?: TestbedLayer;
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

/** The layer of a baseline entry. */
const layerOfEntry = (e: TestbedBaselineEntry): TestbedLayer => e.layer ?? 'low';

/**
 * The release's baseline as the campaign reads it: each entry on `transport` and one of `layers`
 * a known cause (its invariant, the transport and layer, the features of its minimal case), and
 * how to write a new one.
 */
export function testbedBaselineOf(release: { readonly language: SdkTestbedLanguage; readonly sdk: string; readonly version: string }, transport: SdkTestbedTransport, layers: readonly TestbedLayer[] = ['low']): RealBaseline {
  const existing = loadTestbedBaseline(release.language, release.version);
  const entries = existing?.entries.filter((e) => e.transport === transport && layers.includes(layerOfEntry(e))) ?? [];
  const where = `${transport}, ${layers.join(' and ')} layer${layers.length > 1 ? 's' : ''}`;
  return {
    known: entries.map((e) => ({ invariant: e.invariant, variant: layerVariant(transport, layerOfEntry(e)), shape: shapeKey(planShape(e.minimal)) })),
    summary: existing ? `${entries.length} known finding(s) on ${where} (${testbedBaselinePath(release.language, release.version)})` : 'none yet (every finding is new)',
    write: (findings, command) => updateTestbedBaseline(existing, release, transport, layers, findings as readonly TestbedBaselineFinding[], command),
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
 * The baseline with the entries of `transport` on `layers` replaced by the confirmed `findings`
 * of a campaign (each on the layer of its minimal case; the other transports' and layers' kept),
 * written atomically; returns its file. `commands` is keyed by transport, and by transport and
 * layer for a campaign of one layer (`stdio high`).
 */
export function updateTestbedBaseline(
  existing: TestbedBaseline | undefined,
  release: { readonly language: SdkTestbedLanguage; readonly sdk: string; readonly version: string },
  transport: SdkTestbedTransport,
  layers: readonly TestbedLayer[],
  findings: readonly TestbedBaselineFinding[],
  command: string,
): string {
  const kept = (existing?.entries ?? []).filter((e) => e.transport !== transport || !layers.includes(layerOfEntry(e)));
  const fresh = findings.map((f): TestbedBaselineEntry => {
    const layer = layerOfCase(f.minimal);
    return { invariant: f.invariant, transport, ...(layer !== 'low' && { layer }), message: f.message, minimal: f.minimal, rate: f.rate };
  });
  const key = layers.length === 1 ? `${transport} ${layers[0]}` : transport;
  const baseline: TestbedBaseline = {
    kind: 'testbed-baseline',
    ...release,
    commands: { ...existing?.commands, [key]: command },
    entries: [...kept, ...fresh].sort((a, b) => a.transport.localeCompare(b.transport) || layerOfEntry(a).localeCompare(layerOfEntry(b)) || a.invariant.localeCompare(b.invariant)),
  };
  const file = testbedBaselinePath(release.language, release.version);
  writeFileAtomic(file, `${JSON.stringify(baseline, null, 2)}\n`, { mkdir: true });
  return file;
}
