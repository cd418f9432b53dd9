import { createRequire } from 'node:module';

/** cli-progress, loaded when the first bar is drawn (on a terminal), not by every command that imports this module. */
const loadCliProgress = (): typeof import('cli-progress') => createRequire(import.meta.url)('cli-progress') as typeof import('cli-progress');

/** No progress at all (`--quiet`): set by `main` for the command, and given back after it. */
export const progressSettings = { quiet: false };

const silent = { update() {}, stop() {} };

/** Whether the display names what was found so far, and the rate (runs, not shrinks). */
const counts = (label: string) => label === 'runs';

/**
 * A progress display on stderr: a bar on a terminal (with runs/s, invariants broken so far and
 * the time left), a line every 10 % in logs (CI).
 */
export function createProgress(label: string): { update(done: number, total: number, found?: number): void; stop(): void } {
  if (progressSettings.quiet) return silent;
  if (process.stderr.isTTY) {
    const extra = counts(label) ? ' | {rate} runs/s | {found} invariant(s) broken' : '';
    const cliProgress = loadCliProgress();
    const bar = new cliProgress.SingleBar(
      { format: `${label} [{bar}] {value}/{total} {percentage}%${extra} | eta {eta}s`, stream: process.stderr, hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    let since = 0;
    return {
      update(done, total, found) {
        if (!started) {
          bar.start(total, 0, { rate: 0, found: 0 });
          since = performance.now();
        }
        started = true;
        const seconds = (performance.now() - since) / 1000;
        bar.update(done, { rate: seconds > 0 ? Math.round(done / seconds) : 0, found: found ?? 0 });
      },
      stop() {
        if (started) bar.stop();
        started = false;
      },
    };
  }
  let lastDecile = -1;
  return {
    update(done, total, found) {
      const decile = Math.floor((done / total) * 10);
      if (decile !== lastDecile) process.stderr.write(`${label}: ${done}/${total}${counts(label) && found !== undefined ? `, ${found} invariant(s) broken` : ''}\n`);
      lastDecile = decile;
    },
    stop() {},
  };
}

/**
 * Progress of runs under a time limit: the runs done against the time used, since the run count
 * may never be reached. A bar of elapsed seconds on a terminal, a line every 10 % of the time in
 * logs. Reads the real clock between runs only (it is called back between runs).
 */
export function createTimedProgress(label: string, seconds: number, now: () => number): { update(done: number, total: number): void; stop(): void } {
  if (progressSettings.quiet) return silent;
  const started = now();
  const elapsed = () => Math.min(seconds, (now() - started) / 1000);
  if (process.stderr.isTTY) {
    const cliProgress = loadCliProgress();
    const bar = new cliProgress.SingleBar(
      { format: `${label} [{bar}] {runs} runs, {value}/{total} s`, stream: process.stderr, hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
    let shown = false;
    return {
      update(done) {
        if (!shown) bar.start(seconds, 0, { runs: 0 });
        shown = true;
        bar.update(Math.floor(elapsed()), { runs: done });
      },
      stop() {
        if (shown) bar.stop();
        shown = false;
      },
    };
  }
  let lastDecile = -1;
  return {
    update(done, total) {
      const decile = Math.floor((elapsed() / seconds) * 10);
      if (decile !== lastDecile) process.stderr.write(`${label}: ${done}/${total} after ${elapsed().toFixed(seconds < 20 ? 1 : 0)} of ${seconds} s\n`);
      lastDecile = decile;
    },
    stop() {},
  };
}
