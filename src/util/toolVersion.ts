/**
 * mcp-sim's own name and version, read from its package.json: the one place that knows them.
 * Replay files and printed replay commands record them, since a case index or a tape means
 * another case under another generator or scheduler.
 */
import { readFileSync } from 'node:fs';

/** A package by name and version, as npm names it (`name@version`). */
export interface PackageId {
  readonly name: string;
  readonly version: string;
}

function readTool(): PackageId {
  const file = new URL('../../package.json', import.meta.url);
  const { name, version } = JSON.parse(readFileSync(file, 'utf8')) as Partial<PackageId>;
  if (typeof name !== 'string' || typeof version !== 'string') throw new Error(`mcp-sim: ${file.pathname} has no "name" and "version"`);
  return Object.freeze({ name, version });
}

/** mcp-sim's package name and version (package.json), read once. */
export const TOOL: PackageId = readTool();

/** `name@version`. */
export const packageId = (p: PackageId): string => `${p.name}@${p.version}`;
