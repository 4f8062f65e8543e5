/**
 * The process's background workers, in one place: each is started when the app is ready and stopped when it closes
 * (a graceful shutdown included), whichever module it belongs to. The webhook delivery worker, the periodic jobs and
 * the metrics listener are here; a new worker (the SMS outbox's) joins with `app.workers.add(name, worker)`.
 */

export interface Worker {
  /** Starts the work (nothing to start: the worker runs on its own, and only stopping matters). */
  start?(): void;
  /** Stops it: nothing new is taken on, and what is under way ends or is left for a later run to pick up. */
  stop(): void | Promise<void>;
}

export interface Workers {
  /** Adds a worker: started with the others, or at once when the app is running already. */
  add(name: string, worker: Worker): void;
  startAll(): void;
  /** Stops every worker, all at once; a worker that fails to stop is logged and does not keep the others running. */
  stopAll(): Promise<void>;
}

export function workers(log: (message: string, error: unknown) => void): Workers {
  const all: { name: string; worker: Worker }[] = [];
  let running = false;
  const start = ({ name, worker }: { name: string; worker: Worker }) => {
    try {
      worker.start?.();
    } catch (error) {
      log(`${name} did not start`, error);
    }
  };
  return {
    add(name, worker) {
      all.push({ name, worker });
      if (running) start({ name, worker });
    },
    startAll() {
      running = true;
      all.forEach(start);
    },
    async stopAll() {
      running = false;
      await Promise.all(
        all.map(async ({ name, worker }) => {
          try {
            await worker.stop();
          } catch (error) {
            log(`${name} did not stop cleanly`, error);
          }
        }),
      );
    },
  };
}

/** A job run every `everyMs` while the app runs (the timer never keeps the process alive). */
export function periodic(everyMs: number, run: () => void): Worker {
  let timer: NodeJS.Timeout | undefined;
  return {
    start() {
      timer = setInterval(run, everyMs);
      timer.unref();
    },
    stop: () => clearInterval(timer),
  };
}

/** A worker's rounds of work, run on a timer and on a wake, never two at once. */
export interface Rounds {
  /** Runs a round now unless one is running; a wake during a round runs another right after it. Nothing while stopped. */
  wake(): void;
  readonly started: boolean;
  /** Starts the timer (which never keeps the process alive) and runs a round at once: work may be waiting from before. */
  start(): void;
  /** Stops the timer and resolves when the round in flight has ended. */
  stop(): Promise<void>;
}

/** Rounds of `round` every `pollMs` and on every wake; a round that fails is `failed`'s to log, and the next runs as ever. */
export function rounds(pollMs: number, round: () => Promise<void>, failed: (error: unknown) => void): Rounds {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  function wake() {
    if (!timer) return;
    if (running) {
      again = true;
      return;
    }
    running = round()
      .catch(failed)
      .finally(() => {
        running = null;
        if (again && timer) {
          again = false;
          wake();
        }
      });
  }
  return {
    wake,
    get started() {
      return timer !== null;
    },
    start() {
      timer = setInterval(wake, pollMs);
      timer.unref();
      setImmediate(wake);
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
