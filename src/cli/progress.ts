import cliProgress from 'cli-progress';

/** A progress display on stderr: a bar on a terminal, a line every 10 % in logs (CI). */
export function createProgress(label: string): { update(done: number, total: number): void; stop(): void } {
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
      stop: () => started && bar.stop(),
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
