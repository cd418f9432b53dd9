import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ShrinkMemo, type ShrinkMemoFile } from '../campaign/shrinkMemo.ts';
import { writeJsonAtomic } from '../util/atomicWrite.ts';
import { BASELINES_DIR } from '../util/projectPaths.ts';

/** `properties/baselines/<package>@<version>.shrinks.json`: the release's kept shrinks, beside its baseline. */
export function shrinkMemoPath(pkg: string, version: string): string {
  return join(BASELINES_DIR, `${pkg}@${version}.shrinks.json`);
}

/** The kept shrinks of `pkg@version` (empty when it has none). */
export function loadShrinkMemo(pkg: string, version: string): ShrinkMemo {
  const file = shrinkMemoPath(pkg, version);
  if (!existsSync(file)) return new ShrinkMemo();
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as ShrinkMemoFile;
  if (parsed.package !== pkg || parsed.version !== version || !Array.isArray(parsed.entries)) throw new Error(`loadShrinkMemo: ${file} is not the shrink memo of ${pkg}@${version}`);
  return new ShrinkMemo(parsed.entries);
}

/** Writes `memo` as the kept shrinks of `pkg@version`; returns the file. */
export function saveShrinkMemo(pkg: string, version: string, memo: ShrinkMemo, command: string): string {
  const file = shrinkMemoPath(pkg, version);
  const document: ShrinkMemoFile = { package: pkg, version, command, entries: memo.entries() };
  writeJsonAtomic(file, document, { mkdir: true });
  return file;
}
