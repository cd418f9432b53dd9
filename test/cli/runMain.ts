import { vi } from 'vitest';
import { main } from '../../src/cli/main.ts';

/** What one `mcp-sim` invocation printed, without colours, and its exit code. */
export interface MainRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly lines: string[];
}

const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

/**
 * Runs `mcp-sim <args>` through the exported `main`, capturing `console.log` and writes to
 * stdout and stderr (commander prints help and errors with `process.stdout/stderr.write`).
 * `env` entries are set for the run only (undefined deletes one). Await one run before starting
 * the next: the spies are global, and a run that ends restores them under a concurrent one.
 */
export async function runMain(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<MainRun> {
  const out: string[] = [];
  const err: string[] = [];
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  const spies = [
    vi.spyOn(console, 'log').mockImplementation((...xs: unknown[]) => void out.push(`${xs.map(String).join(' ')}\n`)),
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (out.push(String(chunk)), true)),
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (err.push(String(chunk)), true)),
  ];
  try {
    const code = await main(['node', 'mcp-sim', ...args]);
    const stdout = plain(out.join(''));
    return { code, stdout, stderr: plain(err.join('')), lines: stdout.split('\n').filter((l) => l !== '') };
  } finally {
    for (const s of spies) s.mockRestore();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
