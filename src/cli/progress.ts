import cliProgress from 'cli-progress';

/** A progress display on stderr: a bar on a terminal, a line every 10 % in logs (CI). */
/** No progress at all (`--quiet`): set by `main` for the command, and given back after it. */
export const progressSettings = { quiet: false };

const silent = { update() {}, stop() {} };

export function createProgress(label: string): { update(done: number, total: number): void; stop(): void } {
  if (progressSettings.quiet) return silent;
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: `${label} [{bar}] {value}/{total} {percentage}% eta {eta}s`, stream: process.stderr, hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update(done, total) {
        if (!started) bar.start(total, 0);
        started = true;
        bar.update(done);
      },
      stop() {
        if (started) bar.stop();
        started = false;
      },
    };
  }
  let lastDecile = -1;
  return {
    update(done, total) {
      const decile = Math.floor((done / total) * 10);
      if (decile !== lastDecile) process.stderr.write(`${label}: ${done}/${total}\n`);
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
