/**
 * Runs `work` over `items` with at most `parallel` at once; the results are in the order of the
 * items, whatever order they finished in. Real-time runs are waits more than work, so a few
 * more at once than there are cores keeps the machine busy.
 */
export async function pool<T, R>(items: readonly T[], parallel: number, work: (item: T, k: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, items.length) }, async () => {
      while (next < items.length) {
        const k = next++;
        results[k] = await work(items[k]!, k);
      }
    }),
  );
  return results;
}

/** Runs what it is given with at most `n` at once, in the order given: a semaphore around `work`. */
export function limiter(n: number): <R>(work: () => Promise<R>) => Promise<R> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <R>(work: () => Promise<R>): Promise<R> => {
    if (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await work();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
