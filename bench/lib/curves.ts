/**
 * Empty curves, named the one way every suite names them: `floor/<path>` for the floor and
 * `sdk/<path>` for the SDK, each SDK curve pointing at the floor curve it is compared to.
 */
import type { Curve } from './suite.ts';

export function floorCurve(id: string, label: string, op: string, nMeaning: string): Curve {
  return { id: `floor/${id}`, label: `floor ${label}`, op, nMeaning, points: [] };
}

export interface SdkCurveSpec {
  /** Path id; the curve's id is `sdk/<id>`. */
  id: string;
  /** Id of the floor curve compared against, without the `floor/` prefix. */
  floor: string;
  /** Label after `SDK <version> `. */
  label: string;
  op: string;
  nMeaning: string;
}

export function sdkCurve(version: string, spec: SdkCurveSpec): Curve {
  return {
    id: `sdk/${spec.id}`,
    label: `SDK ${version} ${spec.label}`,
    op: spec.op,
    nMeaning: spec.nMeaning,
    floorId: `floor/${spec.floor}`,
    sdkVersion: version,
    points: [],
  };
}
