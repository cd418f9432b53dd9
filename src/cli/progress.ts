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

/** What a real-time campaign is doing: its runs, then shrinking its findings and re-running them for their rates. */
export interface RealProgressState {
  readonly phase: 'run' | 'shrink' | 'rate';
  /** Runs done of `total` (`run`); invariants worked out of `total` (`shrink`, `rate`). */
  readonly done: number;
  readonly total: number;
  /** Invariants broken so far (before any is confirmed), where known. */
  readonly found?: number;
}

/** At most one plain line this often when stderr is no terminal (a CI log): a long real-time run says it is alive, a short one stays quiet. */
export const PLAIN_LINE_EVERY_MS = 60_000;

/** `~40 s`, `~3 min`. */
const duration = (ms: number) => (ms < 90_000 ? `${Math.max(1, Math.round(ms / 1000))} s` : `${Math.round(ms / 60_000)} min`);

/**
 * A real-time campaign's progress in words: the runs done, what they broke so far, and the time
 * left (the runs' pace so far); then the findings shrunk and re-run for their rates, and the time
 * left as far as the invariants worked out so far tell (each is bounded by the shrink budget).
 */
export function realProgressLine(s: RealProgressState, phaseMs: number, totalMs: number): string {
  const left = s.done > 0 && s.done < s.total ? `, ~${duration((phaseMs / s.done) * (s.total - s.done))} left` : '';
  if (s.phase === 'run') return `runs ${s.done}/${s.total}${s.found !== undefined ? `, ${s.found} invariant(s) broken so far` : ''}${left} (${duration(totalMs)} in)`;
  const doing = s.done >= s.total ? '' : s.phase === 'shrink' ? ' (shrinking)' : ' (rate re-runs)';
  return `findings ${s.done}/${s.total} worked out${doing}${left} (${duration(totalMs)} in)`;
}

/** Where a real-time progress display writes, and the clock it reads (a test gives its own). */
export interface ProgressIo {
  readonly stream: NodeJS.WritableStream;
  readonly tty: boolean;
  readonly now: () => number;
}

/**
 * The progress of a real-time campaign on stderr, silent under `--quiet`: on a terminal a bar
 * (cli-progress, as the simulated campaigns draw theirs) of the runs, then of the findings worked
 * out, with the words of `realProgressLine`; in a log at most one plain line a minute.
 */
export function createRealProgress(io: ProgressIo = { stream: process.stderr, tty: process.stderr.isTTY === true, now: () => performance.now() }): { update(s: RealProgressState): void; stop(): void } {
  if (progressSettings.quiet) return { update() {}, stop() {} };
  const started = io.now();
  let phaseStarted = started;
  let phase: RealProgressState['phase'] = 'run';
  let found: number | undefined;
  const words = (s: RealProgressState) => {
    const t = io.now();
    // Shrinking and rates are one phase for the time left: both work through the same invariants.
    if ((phase === 'run') !== (s.phase === 'run')) phaseStarted = t;
    phase = s.phase;
    if (s.found !== undefined) found = s.found;
    return realProgressLine({ ...s, ...(s.phase === 'run' && found !== undefined && { found }) }, t - phaseStarted, t - started);
  };
  if (io.tty) {
    const cliProgress = loadCliProgress();
    // `noTTYOutput`: the caller said it is a terminal (a test's stream is not one).
    const bar = new cliProgress.SingleBar({ format: '[{bar}] {words}', stream: io.stream, hideCursor: true, noTTYOutput: true }, cliProgress.Presets.shades_classic);
    let shown = false;
    return {
      update(s) {
        const text = words(s);
        if (!shown) bar.start(s.total, s.done, { words: text });
        shown = true;
        bar.setTotal(s.total);
        bar.update(s.done, { words: text });
      },
      stop() {
        if (shown) bar.stop();
        shown = false;
      },
    };
  }
  let last = started;
  return {
    update(s) {
      const text = words(s);
      if (io.now() - last < PLAIN_LINE_EVERY_MS) return;
      last = io.now();
      io.stream.write(`${text}\n`);
    },
    stop() {},
  };
}
