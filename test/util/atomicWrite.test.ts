import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { temporaryPathFor, writeFileAtomic, writeJsonAtomic } from '../../src/util/atomicWrite.ts';

describe('writeFileAtomic', () => {
  it('writes through a temporary file in the same folder and leaves only the target', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-atomic-'));
    const file = join(dir, 'report.json');
    writeJsonAtomic(file, { a: 1 });
    expect(readFileSync(file, 'utf8')).toBe('{\n  "a": 1\n}\n');
    writeFileAtomic(file, 'second');
    expect(readFileSync(file, 'utf8')).toBe('second');
    expect(readdirSync(dir)).toEqual(['report.json']);
    expect(temporaryPathFor(file).startsWith(join(dir, '.report.json.'))).toBe(true);
    writeFileAtomic(join(dir, 'deep', 'er', 'x.json'), 'x', { mkdir: true });
    expect(readFileSync(join(dir, 'deep', 'er', 'x.json'), 'utf8')).toBe('x');
  });

  it('a write that fails half-way leaves the old file whole and removes its temporary file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-atomic-'));
    const file = join(dir, 'report.json');
    writeFileSync(file, 'old');
    // Bytes whose length cannot be read: the write fails after the temporary file was opened.
    class Broken extends Uint8Array {
      override get length(): number {
        throw new Error('disk full (on purpose)');
      }
    }
    expect(() => writeFileAtomic(file, new Broken(8))).toThrow('disk full (on purpose)');
    expect(readFileSync(file, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['report.json']);
    // A target that cannot be replaced (a folder): the same.
    expect(() => writeFileAtomic(dir, 'x')).toThrow();
    expect(readdirSync(dir)).toEqual(['report.json']);
  });

  it('a reader never sees a partial file while another thread rewrites it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sim-atomic-'));
    const file = join(dir, 'big.json');
    const big = (n: number) => JSON.stringify({ n, pad: 'x'.repeat(2_000_000) });
    writeFileSync(file, big(0));
    const helper = new URL('../../src/util/atomicWrite.ts', import.meta.url).href;
    // The writer thread loads the helper through tsx, as a campaign worker does.
    const worker = new Worker(
      `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(helper)}); }).then(({ writeFileAtomic }) => {
         for (let n = 1; n <= 20; n++) writeFileAtomic(${JSON.stringify(file)}, JSON.stringify({ n, pad: 'x'.repeat(1_000_000) }));
       });`,
      { eval: true },
    );
    const done = new Promise((resolve, reject) => {
      worker.on('exit', resolve);
      worker.on('error', reject);
    });
    let reads = 0;
    let finished = false;
    void done.then(() => (finished = true));
    while (!finished) {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as { n: number; pad: string };
      expect([1_000_000, 2_000_000]).toContain(parsed.pad.length);
      reads++;
      await new Promise((r) => setImmediate(r));
    }
    await done;
    expect(reads).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).n).toBe(20);
    expect(readdirSync(dir)).toEqual(['big.json']);
    expect(big(0).length).toBeGreaterThan(2_000_000);
  });
});
