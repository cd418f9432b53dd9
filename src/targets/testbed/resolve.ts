import { TargetArgumentError } from '../Target.ts';
import { installSdkTestbed, sdkTestbed, type SdkTestbed, type SdkTestbedLanguage } from './sdkTestbed.ts';
import type { SdkTestbedTransport, TestbedLayer } from './languages.ts';
import { endpointOf } from './runProgram.ts';

/**
 * The installed test bed of `language` at `release` (default: the manifest's first), its
 * interpreter on `layer` (default: the low one). A release
 * not installed yet is installed first (its install.sh with MCP_SIM_SDK_VERSION), its output on
 * `say`. A version the registry lacks, a missing toolchain or a failed install is one line, naming
 * the target as it was asked for (`kind`: the bed's server, or its client).
 */
export async function resolveTestbed(
  language: SdkTestbedLanguage,
  release: string | undefined,
  say: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  kind: 'testbed' | 'client' = 'testbed',
  layer?: TestbedLayer,
): Promise<SdkTestbed> {
  const form = `${kind}:${language}${release === undefined ? '' : `@${release}`}${layer === undefined ? '' : ` --layer ${layer}`}`;
  const options = { ...(release !== undefined && { version: release }), ...(layer !== undefined && { layer }) };
  const found = sdkTestbed(language, options);
  if (!('skipped' in found)) return found;
  if (!found.skipped.startsWith('not installed')) throw new TargetArgumentError(`mcp-sim check ${form}: ${found.skipped}.`);
  say(`installing the ${language} test bed${release === undefined ? '' : ` (${release})`}: ${found.skipped.replace(/^not installed: run /, '')}`);
  const install = await installSdkTestbed(language, { ...(release !== undefined && { version: release }), onLine: (line) => say(`  ${line}`) });
  if (install.code !== 0) {
    const why = install.code === 4 ? 'the registry has no such version' : install.code === 3 ? 'a toolchain is missing' : `the install failed (exit ${install.code})`;
    throw new TargetArgumentError(`mcp-sim check ${form}: ${why}: ${install.lastLine}`);
  }
  say(`  installed: ${install.lastLine}`);
  const again = sdkTestbed(language, options);
  if ('skipped' in again) throw new TargetArgumentError(`mcp-sim check ${form}: installed, and still ${again.skipped}.`);
  return again;
}

/** `transport`, when the release offers it; else one line naming what it offers. */
export function checkTransport(testbed: SdkTestbed, transport: SdkTestbedTransport): void {
  try {
    endpointOf(testbed, transport);
  } catch (error) {
    throw new TargetArgumentError(`mcp-sim check testbed:${testbed.language}@${testbed.version}: ${(error as Error).message}.`);
  }
}
