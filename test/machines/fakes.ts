import { fromCallback, fromPromise } from 'xstate';

/** A promise the test settles by hand, to see the state while a request is in flight. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * A fake request actor: every call is recorded with its input and waits until the test answers it. `inFlight`
 * counts calls not yet answered, so a test can assert that requests never overlap.
 */
export function fakeRequest<Output, Input = unknown>() {
  const calls: { input: Input; answer: ReturnType<typeof deferred<Output>> }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const logic = fromPromise<Output, Input>(async ({ input }) => {
    const answer = deferred<Output>();
    calls.push({ input, answer });
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      return await answer.promise;
    } finally {
      inFlight--;
    }
  });
  return {
    logic,
    calls,
    get last() {
      const call = calls.at(-1);
      if (!call) throw new Error('no call yet');
      return call;
    },
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
  };
}

/** A fake callback actor (a step flow, a visibility watcher): records its input and what it receives, sends to its parent. */
export function fakeCallback<Input = unknown>() {
  const runs: { input: Input; sendBack: (event: { type: string }) => void; received: { type: string }[]; stopped: boolean }[] = [];
  const logic = fromCallback<{ type: string }, Input>(({ input, sendBack, receive }) => {
    const run = { input, sendBack: sendBack as (event: { type: string }) => void, received: [] as { type: string }[], stopped: false };
    runs.push(run);
    receive((event) => run.received.push(event));
    return () => {
      run.stopped = true;
    };
  });
  return {
    logic,
    runs,
    get last() {
      const run = runs.at(-1);
      if (!run) throw new Error('not started');
      return run;
    },
  };
}

/** Lets settled promises reach the actors (promise actors report on a later microtask). */
export const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
