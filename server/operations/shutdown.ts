/**
 * A graceful stop, as a deploy's SIGTERM (or Ctrl-C's SIGINT) asks: `/health/ready` answers 503 at once, the listener
 * stops accepting connections, the requests in flight finish (a Pay waiting on the acquirer included: its answer
 * comes back on the connection it went out on) and each answer closes its connection, then the workers stop, the
 * work in the background ends, the database closes and the process exits 0. Past the time-out it exits 1 without
 * waiting longer; a second signal exits at once.
 */
import { constants } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { ShutdownState } from './health';

/** Whether the app is stopping, and who wants to hear when its listener stops accepting. */
export interface Lifecycle extends ShutdownState {
  /** The stop has begun: readiness fails from now on. */
  beginStopping(): void;
  /** Calls `listener` at the moment the listener stops accepting (right before it closes). */
  onStopAccepting(listener: () => void): void;
}

export function lifecycle(): Lifecycle & { stopAccepting(): void } {
  let stopping = false;
  const listeners: (() => void)[] = [];
  return {
    get stopping() {
      return stopping;
    },
    beginStopping() {
      stopping = true;
    },
    onStopAccepting(listener) {
      listeners.push(listener);
    },
    stopAccepting() {
      stopping = true;
      for (const listener of listeners) listener();
    },
  };
}

/**
 * Ties the lifecycle to the app's close: readiness fails from the first closing step, the moment the listener closes
 * is announced, and once stopping every answer says `Connection: close`, so a kept-alive connection ends with the
 * request it carried instead of holding the close open for its idle time-out.
 */
export function closingHooks(app: FastifyInstance, state: Lifecycle & { stopAccepting(): void }, { connectionClose = true } = {}): void {
  // preClose runs right before the listener closes, in the same turn of the event loop: nothing is accepted between.
  app.addHook('preClose', (done) => {
    state.stopAccepting();
    done();
  });
  if (!connectionClose) return;
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (state.stopping) void reply.header('connection', 'close');
    done(null, payload);
  });
}

export interface ShutdownOptions {
  /** How long the in-flight requests and the workers may take (SHUTDOWN_TIMEOUT_MS, 10 s). */
  timeoutMs: number;
  /** Tells the operator what happens (the start banner's stream). */
  say: (line: string) => void;
  exit: (code: number) => void;
}

/** On SIGTERM or SIGINT: the graceful stop. A second signal exits at once (128 + its number, as a shell reports it). */
export function stopOnSignals(app: FastifyInstance, options: ShutdownOptions): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      options.say(`${signal} again: exiting now, without waiting for the requests in flight.`);
      options.exit(128 + (constants.signals[signal] ?? 0));
      return;
    }
    stopping = true;
    app.lifecycle.beginStopping();
    app.lifecycle.onStopAccepting(() =>
      options.say(`${signal}: no longer accepting connections; finishing the requests in flight (at most ${options.timeoutMs} ms).`),
    );
    const timer = setTimeout(() => {
      options.say(`Not stopped within ${options.timeoutMs} ms: exiting with requests or work still under way.`);
      options.exit(1);
    }, options.timeoutMs);
    timer.unref();
    app.close().then(
        () => {
          clearTimeout(timer);
          options.say('Stopped: every request answered, the workers and the database closed.');
          options.exit(0);
        },
        (error: unknown) => {
          clearTimeout(timer);
          options.say(`Stopping failed: ${error instanceof Error ? error.message : String(error)}`);
          options.exit(1);
        },
      );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
