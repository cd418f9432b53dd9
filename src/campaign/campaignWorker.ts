/**
 * A campaign worker thread: loads the SDK release the campaign runs, then runs the slices of
 * cases and the shrinks it is sent, one at a time, with the very functions a campaign uses in
 * process (`runCases`, `shrinkCounterexample`), so a slice's tally is what one thread gives.
 * Started by `workerPool.ts` through `workerBoot.mjs`; never imported by the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runChecked } from '../check/index.ts';
import { loadSdk } from '../sdk/index.ts';
import { messageOf } from '../util/errors.ts';
import { JudgedCases } from './judgedCases.ts';
import { runCases, shrinkCounterexample, type CheckedRunner } from './runCampaign.ts';
import type { WorkerErrorInfo, WorkerReply, WorkerStart, WorkerTask } from './workerProtocol.ts';

const port = parentPort;
if (!port) throw new Error('campaignWorker.ts runs in a worker thread started by workerPool.ts');
const start = workerData as WorkerStart;
const stop = new Int32Array(start.stop);
const stopped = () => Atomics.load(stop, 0) !== 0;
const reply = (message: WorkerReply) => port.postMessage(message);
const errorInfo = (error: unknown, index?: number): WorkerErrorInfo => ({
  message: messageOf(error),
  ...(error instanceof Error && error.stack !== undefined && { stack: error.stack }),
  ...(index !== undefined && { index }),
});

/** The runner of the campaign's SDK release, or undefined (and the main thread told) when it does not load. */
async function load(): Promise<CheckedRunner | undefined> {
  try {
    const sdk = await loadSdk({ kind: 'folder', path: start.sdk.root });
    if (sdk.name !== start.sdk.name || sdk.version !== start.sdk.version) {
      throw new Error(`loaded ${sdk.name}@${sdk.version} from ${start.sdk.root}, and the campaign runs ${start.sdk.name}@${start.sdk.version}`);
    }
    return (scenario, options) => runChecked(scenario, { ...options, sdk });
  } catch (error) {
    reply({ kind: 'start-failed', error: errorInfo(error) });
    return undefined;
  }
}

const runner = await load();
if (runner) {
  // One task at a time: runs share this thread's globals (clock, Math.random) and must not overlap.
  let queue = Promise.resolve();
  port.on('message', (task: WorkerTask) => {
    queue = queue.then(() => perform(task, runner));
  });
  reply({ kind: 'ready' });
}

/** The candidates this worker's shrinks judged (the runner is the worker's one SDK release): see `JudgedCases`. */
const judged = new JudgedCases();

async function perform(task: WorkerTask, runner: CheckedRunner): Promise<void> {
  if (task.kind === 'cases') {
    let current = task.job.from;
    try {
      const tally = await runCases(task.job, runner, { shouldStop: stopped, onRun: (done) => (current = task.job.from + done) });
      reply({ kind: 'cases', id: task.id, tally });
    } catch (error) {
      reply({ kind: 'failed', id: task.id, error: errorInfo(error, current) });
    }
    return;
  }
  try {
    const counterexample = await shrinkCounterexample(task.task, { runner, ...task.settings, cut: stopped, judged });
    reply({ kind: 'shrink', id: task.id, counterexample });
  } catch (error) {
    reply({ kind: 'failed', id: task.id, error: errorInfo(error) });
  }
}
