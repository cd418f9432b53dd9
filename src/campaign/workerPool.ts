/**
 * Worker threads for a campaign (`--workers N`). Each worker is its own V8 isolate with its own
 * globals (virtual clock, seeded `Math.random`), so N runs go on at once without touching each
 * other; inside a worker runs still go one at a time.
 *
 * Cases go out in slices of consecutive indices, in index order, to whichever worker is free;
 * each slice comes back as the tally of the cases it ran, and the tallies are merged in index
 * order. Runs are pure functions of their case, so which worker ran a slice changes nothing:
 * the report is the one of a single thread. Shrinks go out one invariant at a time and come
 * back in report order.
 *
 * A worker that fails to start, crashes, or whose run throws fails the campaign with a
 * `WorkerFailure` naming the worker, the cases it held and the cause: no run is lost silently.
 */
import { Worker } from 'node:worker_threads';
import type { InvariantId } from '../model/invariants.ts';
import { realGlobals } from '../sim/realGlobals.ts';
import { moduleUrl } from '../sdk/sdkPackage.ts';
import { releaseInFolder } from '../sdk/sdkRelease.ts';
import {
  emptyTally,
  mergeTally,
  type CampaignTally,
  type CaseExecutor,
  type CasesJob,
  type Counterexample,
  type ShrinkSettings,
  type ShrinkTask,
} from './runCampaign.ts';
import { formatRange } from './shard.ts';
import type { WorkerErrorInfo, WorkerReply, WorkerStart, WorkerTask } from './workerProtocol.ts';

/** The SDK release the workers load (where it lies and what it must be). */
export interface WorkerSdk {
  readonly root: string;
  readonly name: string;
  readonly version: string;
}

export interface CampaignWorkersOptions {
  /** Worker threads to start. */
  readonly count: number;
  readonly sdk: WorkerSdk;
  /** The TypeScript module each worker runs (default `campaignWorker.ts`); tests swap in a faulty one. */
  readonly entry?: URL;
}

/** A worker that did not start, crashed, or whose run threw; the message says which and where. */
export class WorkerFailure extends Error {
  override name = 'WorkerFailure';
  constructor(
    message: string,
    /** The worker's number (1-based). */
    readonly worker: number,
    /** The case whose run threw, when known. */
    readonly caseIndex?: number,
  ) {
    super(message);
  }
}

/** Most cases sent to a worker at once: a slice is also how often progress moves. */
const SLICE_MAX = 64;
/** How often (ms of real time) the main thread looks at its stop conditions while workers run. */
const STOP_POLL_MS = 25;

/** Plain JavaScript modules of the SDK a worker imports before tsx's hooks exist (a warm-up: a missing one is skipped). */
const SDK_PRELOAD = ['types.js', 'client/index.js', 'server/index.js', 'inMemory.js', 'shared/stdio.js', 'server/webStandardStreamableHttp.js', 'client/streamableHttp.js'];
/** The same for the harness's own dependencies. */
const DEPENDENCY_PRELOAD = ['fast-check', 'xstate', '@sinonjs/fake-timers', 'pure-rand'];

interface Slot {
  readonly number: number;
  readonly worker: Worker;
  readonly ready: Promise<void>;
  pending?: { readonly task: WorkerTask; resolve(reply: WorkerReply): void; reject(error: Error): void };
  /** Why it is gone, once it is. */
  dead?: WorkerFailure;
}

/** N worker threads that run a campaign's cases and shrinks (a `CaseExecutor`). Close them when done. */
export class CampaignWorkers implements CaseExecutor {
  /** Starts `options.count` workers; they load the harness and the SDK while the caller goes on. */
  static start(options: CampaignWorkersOptions): CampaignWorkers {
    return new CampaignWorkers(options);
  }

  readonly size: number;
  private readonly stopFlag = new Int32Array(new SharedArrayBuffer(4));
  private readonly slots: Slot[];
  private nextId = 1;
  private closing = false;

  private constructor(options: CampaignWorkersOptions) {
    if (!Number.isSafeInteger(options.count) || options.count < 1) throw new RangeError(`CampaignWorkers: count must be a whole number ≥ 1, got ${options.count}`);
    this.size = options.count;
    const release = releaseInFolder(options.sdk.root);
    const sdkPreload =
      release?.generation === 1 ? SDK_PRELOAD.flatMap((p) => moduleUrl(release.sdk, p) ?? [])
      : release?.generation === 2 ? [release.client, release.server].flatMap((pkg) => moduleUrl(pkg, '.') ?? [])
      : [];
    const preload = [...DEPENDENCY_PRELOAD, ...sdkPreload];
    // Compiled (dist/, the installed package) the worker runs JavaScript; from source, TypeScript.
    const compiled = import.meta.url.endsWith('.js');
    const entry = (options.entry ?? new URL(compiled ? './campaignWorker.js' : './campaignWorker.ts', import.meta.url)).href;
    this.slots = Array.from({ length: options.count }, (_, i) =>
      this.spawn({ entry, preload, sdk: { root: options.sdk.root, name: options.sdk.name, version: options.sdk.version }, stop: this.stopFlag.buffer as SharedArrayBuffer, number: i + 1 }),
    );
  }

  private spawn(start: WorkerStart): Slot {
    const worker = new Worker(new URL('./workerBoot.mjs', import.meta.url), { workerData: start });
    let started: { resolve(): void; reject(e: Error): void };
    const ready = new Promise<void>((resolve, reject) => (started = { resolve, reject }));
    // Nobody may await `ready` before the worker fails (a campaign that ends early): no unhandled rejection.
    ready.catch(() => {});
    const slot: Slot = { number: start.number, worker, ready };
    const fail = (what: string, info?: WorkerErrorInfo) => {
      if (slot.dead) return;
      const holding = slot.pending ? ` while ${describeTask(slot.pending.task)}` : '';
      const at = info?.index !== undefined ? ` (case ${info.index})` : '';
      const detail = info ? `: ${info.message}${info.stack ? `\n${indent(info.stack)}` : ''}` : '';
      slot.dead = new WorkerFailure(`campaign worker ${slot.number} ${what}${holding}${at}${detail}`, slot.number, info?.index);
      started.reject(slot.dead);
      slot.pending?.reject(slot.dead);
      slot.pending = undefined;
    };
    worker.on('message', (reply: WorkerReply) => {
      if (reply.kind === 'ready') return started.resolve();
      if (reply.kind === 'start-failed') return fail('failed to start', reply.error);
      const pending = slot.pending;
      if (!pending || !('id' in pending.task) || pending.task.id !== reply.id) return fail(`answered a task it was not given (${reply.kind} ${reply.id})`);
      slot.pending = undefined;
      if (reply.kind === 'failed') {
        slot.pending = pending; // named in the message
        return fail(reply.error.index !== undefined ? 'failed: a run threw' : 'failed', reply.error);
      }
      pending.resolve(reply);
    });
    worker.on('error', (error) => fail('crashed', { message: error.message, ...(error.stack !== undefined && { stack: error.stack }) }));
    worker.on('exit', (code) => {
      if (!this.closing) fail(`exited (code ${code})`);
    });
    return slot;
  }

  private async request(slot: Slot, task: WorkerTask): Promise<WorkerReply> {
    await slot.ready;
    if (slot.dead) throw slot.dead;
    return new Promise<WorkerReply>((resolve, reject) => {
      slot.pending = { task, resolve, reject };
      slot.worker.postMessage(task);
    });
  }

  /** While `check()` holds, keeps the workers' stop flag in step with it (the main thread idles meanwhile). */
  private watch(check: () => boolean): () => void {
    Atomics.store(this.stopFlag, 0, 0);
    const look = () => {
      if (check()) Atomics.store(this.stopFlag, 0, 1);
    };
    look();
    const timer = realGlobals.setInterval(look, STOP_POLL_MS);
    return () => realGlobals.clearInterval(timer);
  }

  private get stopped(): boolean {
    return Atomics.load(this.stopFlag, 0) !== 0;
  }

  async runCases(job: CasesJob, control: { readonly shouldStop: () => boolean; readonly onPrefix?: (done: number, found: number) => void }): Promise<CampaignTally> {
    const length = job.to - job.from;
    const slice = Math.max(1, Math.min(SLICE_MAX, Math.ceil(length / (this.size * 8))));
    const prefix = emptyTally(job.from);
    /** Slices back from a worker that the prefix has not reached yet, by first case. */
    const waiting = new Map<number, { readonly to: number; readonly tally: CampaignTally }>();
    let ended = false;
    let next = job.from;
    const advance = () => {
      const before = prefix.to;
      for (let done = waiting.get(prefix.to); done && !ended; done = waiting.get(prefix.to)) {
        waiting.delete(done.tally.from);
        mergeTally(prefix, done.tally);
        // A slice cut short by a stop ends the prefix: later slices are not part of the report.
        if (done.tally.to < done.to) ended = true;
      }
      if (prefix.to > before) control.onPrefix?.(prefix.to - job.from, prefix.found.size);
    };
    const serve = async (slot: Slot) => {
      while (next < job.to && !this.stopped) {
        const from = next;
        const to = Math.min(from + slice, job.to);
        next = to;
        const reply = await this.request(slot, { kind: 'cases', id: this.nextId++, job: { ...job, from, to } });
        if (reply.kind !== 'cases') throw new WorkerFailure(`campaign worker ${slot.number} answered ${reply.kind} to cases ${from}..${to - 1}`, slot.number);
        waiting.set(from, { to, tally: reply.tally });
        advance();
      }
    };
    const unwatch = this.watch(control.shouldStop);
    try {
      await allOrFirstError(this.slots.map(serve), () => Atomics.store(this.stopFlag, 0, 1));
    } finally {
      unwatch();
    }
    return prefix;
  }

  async shrinkAll(
    tasks: readonly ShrinkTask[],
    settings: ShrinkSettings,
    control: { readonly cut: () => boolean; readonly onDone?: (done: number) => void },
  ): Promise<(Counterexample | undefined)[]> {
    const results: (Counterexample | undefined)[] = new Array(tasks.length).fill(undefined);
    let next = 0;
    let done = 0;
    const serve = async (slot: Slot) => {
      while (next < tasks.length) {
        const i = next++;
        const task = tasks[i]!;
        if (!this.stopped) {
          const reply = await this.request(slot, { kind: 'shrink', id: this.nextId++, task, settings });
          if (reply.kind !== 'shrink') throw new WorkerFailure(`campaign worker ${slot.number} answered ${reply.kind} to a shrink of ${task.invariant}`, slot.number);
          results[i] = reply.counterexample;
        }
        control.onDone?.(++done);
      }
    };
    const unwatch = this.watch(control.cut);
    try {
      await allOrFirstError(this.slots.map(serve), () => Atomics.store(this.stopFlag, 0, 1));
    } finally {
      unwatch();
    }
    return results;
  }

  /** Stops every worker (a run in progress is abandoned). */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}

/** Like `Promise.all`, but on the first rejection calls `onError` (stop the others) and waits for every one to settle. */
async function allOrFirstError(jobs: Promise<void>[], onError: () => void): Promise<void> {
  let first: unknown;
  let failed = false;
  await Promise.all(
    jobs.map((j) =>
      j.catch((error: unknown) => {
        if (!failed) {
          failed = true;
          first = error;
          onError();
        }
      }),
    ),
  );
  if (failed) throw first;
}

function describeTask(task: WorkerTask): string {
  return task.kind === 'cases' ? `running ${formatRange(task.job)} of seed ${task.job.seed}` : `shrinking ${task.task.invariant}`;
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
