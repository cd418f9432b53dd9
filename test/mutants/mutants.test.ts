import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  applyPatch,
  CACHE_DIR,
  installedSdkRoot,
  MUTANTS_DIR,
  mutatedSource,
  parsePatch,
  PatchError,
  patchPath,
  prepareMutant,
  readMutantIndex,
} from '../../mutants/lib.ts';
import { defaultSdk, ENV_SDK, installedSdk, SDK_PACKAGE, SdkNotInstalledError } from '../../src/sdk/load.ts';

const index = readMutantIndex();
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

// A cache of its own, so that a concurrent `npm run mutants` keeps its copies.
mkdirSync(join(CACHE_DIR, '..'), { recursive: true });
const cache = mkdtempSync(join(CACHE_DIR, '..', 'mcp-sim-mutants-test-'));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

const savedEnv = process.env[ENV_SDK];
afterEach(() => {
  if (savedEnv === undefined) delete process.env[ENV_SDK];
  else process.env[ENV_SDK] = savedEnv;
});

describe('mutants/: the patches', () => {
  it('should be made against the installed SDK release, at least 25 of them, one patch file per entry', () => {
    expect(installedSdk()).toEqual(index.sdk);
    expect(index.mutants.length).toBeGreaterThanOrEqual(25);
    const ids = index.mutants.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    const patches = readdirSync(MUTANTS_DIR).filter((f) => f.endsWith('.patch')).map((f) => f.slice(0, -'.patch'.length));
    expect(patches.sort()).toEqual([...ids].sort());
  });

  it.each(index.mutants.map((m) => [m.id, m] as const))('%s should apply cleanly to the installed SDK, alone', (id, mutant) => {
    const root = installedSdkRoot();
    const before = sha(join(root, mutant.file));
    const { file, source } = mutatedSource(id);
    expect(file).toBe(mutant.file);
    const pristine = readFileSync(join(root, file), 'utf8');
    expect(source).not.toBe(pristine);
    // Small: a realistic bug, not a rewrite.
    const changed = readFileSync(patchPath(id), 'utf8')
      .split('\n')
      .filter((l) => /^[-+](?![-+]{2} )/.test(l)).length;
    expect(changed).toBeGreaterThan(0);
    expect(changed).toBeLessThanOrEqual(12);
    expect(sha(join(root, mutant.file))).toBe(before);
  });
});

describe('mutants/lib: the applier', () => {
  const patch = parsePatch(
    ['--- a/x.js', '+++ b/x.js', '@@ -2,3 +2,2 @@', ' b', '-c', ' d', ''].join('\n'),
    'mutants/t.patch',
  );

  it('should apply a hunk at its line, or at the one place its lines moved to', () => {
    expect(applyPatch('a\nb\nc\nd\ne\n', patch, 't')).toBe('a\nb\nd\ne\n');
    expect(applyPatch('z\nz\na\nb\nc\nd\ne\n', patch, 't')).toBe('z\nz\na\nb\nd\ne\n');
  });

  it('should say which hunk no longer applies and what the file has instead', () => {
    const error = (() => {
      try {
        applyPatch('a\nb\nC\nd\n', patch, 'mutants/t.patch');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(PatchError);
    expect((error as Error).message).toMatch(/mutants\/t\.patch no longer applies to x\.js: hunk 1 \(@@ -2,3 \+2,2 @@\).*line 3 it expects "c" and the file has "C"/);
  });

  it('should refuse an ambiguous hunk rather than guess', () => {
    expect(() => applyPatch('b\nc\nd\nx\nb\nc\nd\n', parsePatch('--- a/x.js\n+++ b/x.js\n@@ -9,3 +9,2 @@\n b\n-c\n d\n', 't'), 't')).toThrow(/matches at lines 1, 5/);
  });
});

describe('MCP_SIM_SDK: a mutant copy in the installed SDK’s place', () => {
  it('should load the copy with one mutant through defaultSdk() and name it by its own name@version', async () => {
    const root = installedSdkRoot();
    const before = sha(join(root, 'dist/esm/shared/protocol.js'));
    const copy = prepareMutant('cancel-id-as-string', cache);
    expect(sha(join(root, 'dist/esm/shared/protocol.js'))).toBe(before);

    process.env[ENV_SDK] = copy.project;
    const sdk = await defaultSdk();
    expect(sdk.root).toBe(realpathSync(copy.packageRoot));
    expect({ name: sdk.name, version: sdk.version }).toEqual(index.sdk);
    // Reports and baselines name it by the copy's package.json: a mutant of 1.32.2 meets the 1.32.2 baseline.
    expect(installedSdk()).toEqual(index.sdk);
    const protocol = Object.getPrototypeOf(sdk.modules!.client.Client.prototype) as { _oncancel: () => void };
    expect(protocol._oncancel.toString()).toContain('String(notification.params.requestId)');

    delete process.env[ENV_SDK];
    const installed = await defaultSdk();
    expect(installed.root).toBe(root);
    expect(installed).not.toBe(sdk);
  });

  it('should say what is wrong when the variable does not name an SDK', async () => {
    const empty = mkdtempSync(join(cache, 'no-sdk-'));
    process.env[ENV_SDK] = empty;
    const error = await defaultSdk().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkNotInstalledError);
    expect((error as Error).message).toContain(`${ENV_SDK}=${empty}`);
    expect((error as Error).message).toContain(`no ${SDK_PACKAGE} in folder ${empty}`);
    expect(() => installedSdk()).toThrow(SdkNotInstalledError);
  });
});
