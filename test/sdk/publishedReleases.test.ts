import { describe, expect, it } from 'vitest';
import { compareVersions, publishedReleases, type NpmRunner } from '../../src/sdk/install.ts';

describe('publishedReleases: what bisect searches, from npm view (no network here: npm is a stand-in)', () => {
  it('keeps the published releases, oldest first, prereleases left out', async () => {
    const asked: (readonly string[])[] = [];
    const npm: NpmRunner = async (args) => {
      asked.push(args);
      const versions = args[1] === '@modelcontextprotocol/sdk' ? ['1.10.0', '1.9.0', '1.2.0', '1.10.1'] : ['2.0.0-alpha.1', '2.1.0', '2.0.0'];
      return { code: 0, output: JSON.stringify(versions) };
    };
    // The 1.x line of the sdk package, then the 2.x line of the server package (the pair's name).
    expect(await publishedReleases({ npm })).toEqual(['1.2.0', '1.9.0', '1.10.0', '1.10.1', '2.0.0', '2.1.0']);
    expect(asked).toEqual([
      ['view', '@modelcontextprotocol/sdk', 'versions', '--json'],
      ['view', '@modelcontextprotocol/server', 'versions', '--json'],
    ]);
  });

  it('says in one line when the registry cannot be asked', async () => {
    const npm: NpmRunner = async () => ({ code: 1, output: 'npm error code ENOTFOUND\nnpm error network request failed' });
    await expect(publishedReleases({ npm })).rejects.toThrow(/cannot list the releases of @modelcontextprotocol\/sdk .*network request failed; give the list with --releases/);
  });

  it('orders versions numerically', () => {
    expect(['1.10.0', '1.9.9', '1.32.2', '2.0.0'].sort(compareVersions)).toEqual(['1.9.9', '1.10.0', '1.32.2', '2.0.0']);
  });
});
