/**
 * Work that runs after a request has been answered (reconciling an order after a callback or a poll, a refund, the
 * sandbox's callbacks). Tracked so that closing the app, and tests, can wait until it is done.
 */
export interface Background {
  run(name: string, work: () => Promise<unknown>): void;
  /** Resolves when nothing is running (work started meanwhile is waited for too). */
  idle(): Promise<void>;
  /** The app is closing: work that would only wait (for another request's lease) gives up; `idle()` then ends soon. */
  readonly closing: boolean;
  close(): Promise<void>;
}

export function background(log: (message: string, error: unknown) => void): Background {
  const running = new Set<Promise<unknown>>();
  let closing = false;
  return {
    get closing() {
      return closing;
    },
    async close() {
      closing = true;
      await this.idle();
    },
    run(name, work) {
      const job: Promise<unknown> = work()
        .catch((error: unknown) => log(`${name} failed`, error))
        .finally(() => running.delete(job));
      running.add(job);
    },
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
