import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');

describe('docs/library.md: the library example of "Using it as a library" (moved from the README)', () => {
  it('should run as printed, against the public entry', async () => {
    const readme = readFileSync(join(root, 'docs', 'library.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Using it as a library'));
    const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(code, 'the section has a ts code block').toBeDefined();
    // The example imports the entry as seen from the repository root; a temporary copy needs its absolute path.
    const dir = mkdtempSync(join(root, 'node_modules', '.cache-readme-'));
    const file = join(dir, 'example.ts');
    writeFileSync(file, code!.replace("'./src/index.ts'", `'${join(root, 'src', 'index.ts')}'`));
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await import(file);
      const printed = log.mock.calls.map((c) => c.map(String).join(' ')).join('\n');
      expect(printed).toMatch(/^[0-9a-f]{16} \[object Object\]/);
      expect(printed).toContain('deliver client→server');
    } finally {
      log.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
