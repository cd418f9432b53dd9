import type { ToolInfo } from '../../sdk/SdkAdapter.ts';
import { HostedRun } from '../../sim/hosted/hostedServer.ts';
import { quiesce } from '../../sim/realGlobals.ts';
import { withSandbox } from '../../sim/withSandbox.ts';
import { messageOf } from '../../util/errors.ts';
import type { FuzzTarget } from './loadModule.ts';
import { TargetError } from './TargetError.ts';

/**
 * The tools a target lists (`tools/list`), asked once of a fresh server over an in-memory pair,
 * inside a sandbox (virtual time, I/O guard) like a run.
 */
export function discoverTools(target: FuzzTarget): Promise<readonly ToolInfo[]> {
  const { sdk } = target;
  return withSandbox(0, () => {}, async () => {
    const hosted = new HostedRun(sdk, () => {}, () => 0);
    hosted.enter();
    try {
      const server = await target.source.create();
      const client = sdk.createClient();
      const [clientEnd, serverEnd] = sdk.hosting!.createLinkedPair();
      await server.endpoint.connect(serverEnd);
      await client.connect(clientEnd);
      let tools: readonly ToolInfo[];
      try {
        tools = await sdk.hosting!.listTools(client);
      } catch (error) {
        throw new TargetError('no-tools', `mcp-sim check: ${target.label} did not answer tools/list: ${messageOf(error)}`);
      }
      await client.close();
      await quiesce();
      try {
        await server.cleanup?.();
      } catch {
        // A cleanup that fails after discovery does not stop fuzzing.
      }
      if (tools.length === 0) throw new TargetError('no-tools', `mcp-sim check: ${target.label} lists no tools; there is nothing to fuzz.`);
      return tools;
    } finally {
      hosted.exit();
    }
  });
}
