import { describe, expect, it } from 'vitest';
import { matrixColumn, type MatrixCampaign } from '../../src/matrix/causeMatrix.ts';
import { resolveCampaignOptions } from '../../src/options/index.ts';
import { installFailure, SdkChoiceError } from '../../src/sdk/install.ts';
import { loadSdk } from '../../src/sdk/load.ts';

const campaignOf = (profiles: ('memory' | 'http')[]): MatrixCampaign => {
  const { seed, runs, workload, shrinkTimeMsMax } = resolveCampaignOptions({ runs: 10, shrink: true, workload: { profiles } }, {});
  return { seed, runs, workload, shrinkTimeMsMax };
};

describe('matrixColumn: a release that cannot be driven is a column with the reason, never a crash', () => {
  it('an install that fails (offline) gives its one line', async () => {
    const offline = installFailure('1.20.0', 'npm error code ENOTFOUND\nnpm error network request to https://registry.npmjs.org failed');
    const column = await matrixColumn({ choice: '1.20.0', load: () => Promise.reject(new SdkChoiceError(offline)) }, campaignOf(['memory', 'http']));
    expect(column).toEqual({ status: 'cannot', choice: '1.20.0', reason: expect.stringMatching(/^--sdk 1\.20\.0: cannot reach the npm registry to install it \(offline\?\)/) });
  });

  it('a release that lacks every profile asked for (http only on 1.12) names what it lacks', async () => {
    const column = await matrixColumn({ choice: '1.12.0', load: () => loadSdk({ kind: 'package', name: 'sdk-1.12.0' }) }, campaignOf(['http']));
    expect(column).toMatchObject({ status: 'cannot', sdk: { version: '1.12.0' }, reason: expect.stringMatching(/the http profile cannot run: .*1\.12\.0 has no web-standard Streamable HTTP transports/) });
  });

  it('a release whose runs throw is a column too, with the error', async () => {
    const column = await matrixColumn({ choice: 'installed', load: () => loadSdk() }, campaignOf(['memory']), {
      runnerFor: () => () => Promise.reject(new Error('the adapter cannot drive this release\nstack…')),
    });
    expect(column).toMatchObject({ status: 'cannot', sdk: { version: '1.32.2' }, reason: 'running its campaign failed: the adapter cannot drive this release' });
  });
});
