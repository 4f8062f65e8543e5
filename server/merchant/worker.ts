/**
 * The webhook delivery worker: runs in every server process, never on a payer's request. It takes due events
 * from the outbox with a lease (one conditional UPDATE, so two processes never send the same event at once), posts
 * each signed with a time-out, records every attempt, and on a non-2xx answer or a time-out schedules the next try by
 * the retry schedule; after the last, the event has failed. Everything lives in the database, so a restart loses
 * nothing: a lease of a process that died runs out and another takes the event. It wakes at once on an event queued
 * in this process and otherwise polls; the same loop runs the expiry sweep and forgets old idempotency keys.
 */
import { recordWebhookDelivery } from '../operations/metrics';
import { REQUEST_ID_HEADER } from '../operations/requestIds';
import { rounds } from '../operations/workers';
import { expireDueBills } from '../payments/closing';
import type { RootStore } from '../store/store';
import { sweepIdempotencyKeys } from './idempotency';
import { claimWebhookEvent, dueWebhookEvents, EVENT_QUEUED, recordWebhookAttempt } from './outbox';
import { webhookHeaders } from './signature';
import type { WebhookEventRow } from './tables';

export interface WebhookTarget {
  url: string;
  secret: string;
}

export interface WorkerOptions {
  /**
   * Where and with what secret, asked at each round of deliveries (the URL may name a port known only after listen, and
   * an admin may change it at the desk).
   */
  target: () => Promise<WebhookTarget | null>;
  retryScheduleMs: readonly number[];
  timeoutMs: number;
  pollMs: number;
  fetch: typeof fetch;
  /** A line of the worker's log; a delivery's names the request its event came from. */
  log: (message: string, error?: unknown, requestId?: string | null) => void;
}

const SWEEP_KEYS_EVERY_MS = 10 * 60_000;
/** Events taken per look at the outbox. */
const BATCH = 20;

export interface WebhookWorker {
  /** Delivers every due event once (tests call it by hand); answers how many attempts it made. */
  deliverDue(): Promise<number>;
  /** One round of the loop: the expiry sweep, old keys, then deliveries. */
  runOnce(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

/** What one delivery attempt learnt. */
interface Outcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export function webhookWorker(store: RootStore, options: WorkerOptions): WebhookWorker {
  let unsubscribe: (() => void) | null = null;
  let keysSweptAt = 0;
  // Stopping the server aborts a delivery in flight (recorded as failed and retried later) rather than wait for it.
  let stopping = new AbortController();

  async function post(target: WebhookTarget, event: WebhookEventRow): Promise<Outcome> {
    const started = performance.now();
    const timestamp = Math.floor(store.now() / 1000);
    try {
      const requestId: Record<string, string> = event.request_id ? { [REQUEST_ID_HEADER]: event.request_id } : {};
      const response = await options.fetch(target.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'checkout-webhooks/1',
          ...requestId,
          ...webhookHeaders(target.secret, event.id, timestamp, event.payload),
        },
        body: event.payload,
        redirect: 'manual',
        signal: AbortSignal.any([AbortSignal.timeout(options.timeoutMs), stopping.signal]),
      });
      // The answer's body means nothing to us: drop it rather than wait for it.
      await response.body?.cancel().catch(() => {});
      return { statusCode: response.status, error: null, durationMs: Math.round(performance.now() - started) };
    } catch (error) {
      // An abort's reason is a DOMException, not always an Error of this realm: read its name.
      const name = (error as { name?: unknown } | null)?.name;
      const message =
        name === 'TimeoutError'
          ? `no answer in ${options.timeoutMs} ms`
          : stopping.signal.aborted
            ? 'the server stopped during the delivery'
            : error instanceof Error
              ? error.message
              : String(error);
      return { statusCode: null, error: message.slice(0, 500), durationMs: Math.round(performance.now() - started) };
    }
  }

  /** One attempt, as part of the request that caused the event: its log line and its record carry that request's id. */
  async function deliver(target: WebhookTarget, event: WebhookEventRow): Promise<void> {
    const outcome = await post(target, event);
    const attempts = event.attempts + 1;
    const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    const delay = options.retryScheduleMs[attempts - 1];
    const t = store.now();
    await store.transaction((tx) =>
      recordWebhookAttempt(
        tx,
        {
          event_id: event.id,
          url: target.url,
          attempted_at: t,
          status_code: outcome.statusCode,
          error: outcome.error,
          duration_ms: outcome.durationMs,
          request_id: event.request_id,
        },
        ok
          ? { state: 'delivered', attempts, next_attempt_at: event.next_attempt_at, delivered_at: t }
          : delay === undefined
            ? { state: 'failed', attempts, next_attempt_at: event.next_attempt_at, delivered_at: null }
            : { state: 'pending', attempts, next_attempt_at: t + delay, delivered_at: null },
      ),
    );
    recordWebhookDelivery(ok ? 'delivered' : delay === undefined ? 'failed' : 'retrying');
    if (!ok) options.log(`webhook ${event.id} (${event.type}) not delivered: ${outcome.error ?? `HTTP ${outcome.statusCode}`}`, undefined, event.request_id);
  }

  async function deliverDue(): Promise<number> {
    const target = await options.target();
    if (!target) return 0;
    let made = 0;
    for (;;) {
      const due = await dueWebhookEvents(store, BATCH);
      let claimed = 0;
      for (const id of due) {
        if (stopping.signal.aborted) return made;
        // Held long enough for one attempt and its record; a process that dies holding it frees it by then.
        const event = await claimWebhookEvent(store, id, store.now() + options.timeoutMs + 30_000);
        if (!event) continue;
        claimed += 1;
        await deliver(target, event);
        made += 1;
      }
      if (due.length < BATCH || claimed === 0) return made;
    }
  }

  /**
   * A round is the worker's own, whichever request's commit woke it: the bills it expires name no request, and each
   * delivery names the request its event came from.
   */
  async function runOnce(): Promise<void> {
    await expireDueBills(store);
    const t = store.now();
    if (t - keysSweptAt >= SWEEP_KEYS_EVERY_MS) {
      keysSweptAt = t;
      await sweepIdempotencyKeys(store);
    }
    await deliverDue();
  }

  const loop = rounds(options.pollMs, runOnce, (error) => options.log('webhook worker round failed', error));

  return {
    deliverDue,
    runOnce,
    start() {
      if (loop.started) return;
      stopping = new AbortController();
      unsubscribe = store.onSignal(EVENT_QUEUED, () => setImmediate(loop.wake));
      loop.start();
    },
    async stop() {
      unsubscribe?.();
      const ended = loop.stop();
      stopping.abort();
      await ended;
    },
  };
}
