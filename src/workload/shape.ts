/**
 * A case's shape: the set of features it uses (a cancel, a close, a timeout option, …). Two
 * minimal cases of one invariant with different shapes are two causes; a case whose shape covers
 * a known minimal shape may be that cause again. Simulated and real-time cases alike.
 */

/** The shape as one word: its features sorted and joined by `+`, or `plain`. */
export const shapeKey = (shape: ReadonlySet<string>): string => [...shape].sort().join('+') || 'plain';

/** The features of a shape written by `shapeKey`. */
export const shapeOfKey = (key: string): Set<string> => new Set(key === 'plain' ? [] : key.split('+'));

/** True when `shape` has every feature of `minimal`: the case may be that cause again. */
export const covers = (shape: ReadonlySet<string>, minimal: ReadonlySet<string>): boolean => [...minimal].every((x) => shape.has(x));
