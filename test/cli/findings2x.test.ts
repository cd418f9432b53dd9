import { exec } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every command of docs/findings-2.x.md, run as a user pastes it (`npx mcp-sim` as
 * `node bin/mcp-sim.js`, through a shell, in a fresh process): each reproduces what the page says
 * it shows, and the page's counterfactual (the same case on the installed 1.32.2) shows none of it.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
for (const k of ['FORCE_COLOR', 'MCP_SIM_RUNS', 'MCP_SIM_SEED', 'MCP_SIM_SDK']) delete env[k];

function sh(command: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    exec(`node bin/mcp-sim.js ${command.slice('npx mcp-sim '.length)}`, { cwd: root, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, out: String(stdout) + String(stderr) });
    });
  });
}

/** The page's commands: each line of its `sh` blocks, with the comment after `#` (what it shows) apart. */
function commands(): { command: string; says: string }[] {
  const doc = readFileSync(join(root, 'docs', 'findings-2.x.md'), 'utf8');
  const blocks = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks.flatMap((block) =>
    block
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.startsWith('npx mcp-sim '))
      .map((line) => {
        const [command, says = ''] = line.split(/\s+#\s*/);
        return { command: command!.trim(), says: says.trim() };
      }),
  );
}

/** The invariants a comment names (`progress.token-requested, progress.after-response`). */
const namedIn = (says: string) => [...says.matchAll(/\b([a-z]+\.[a-z-]+)\b/g)].map((m) => m[1]!);

describe('docs/findings-2.x.md', () => {
  const all = commands();

  it('has its commands', () => {
    expect(all.length).toBeGreaterThanOrEqual(5);
  });

  it.each(all.map((c) => [c.command, c] as const))('%s', async (_label, { command, says }) => {
    const run = await sh(command);
    expect(run.code, run.out).not.toBe(2);
    if (command.includes('--expect') || command.includes('--baseline')) expect(run.out).toMatch(/^reproduced: /m);
    const named = namedIn(says);
    // "1.32.2: neither": the counterfactual on the installed release shows none of the 2.x findings above it.
    if (says.startsWith('1.32.2')) {
      for (const id of namedIn(all.find((c) => c.says !== '' && !c.says.startsWith('1.32.2'))!.says)) {
        expect(run.out, `${id} on 1.32.2`).not.toMatch(new RegExp(`(VIOLATION|WARNING)\\s+${id.replace('.', '\\.')} `));
      }
    } else {
      for (const id of named) expect(run.out, id).toMatch(new RegExp(`(VIOLATION|WARNING)\\s+${id.replace('.', '\\.')} `));
    }
  });
});
