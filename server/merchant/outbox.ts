/**
 * The webhook outbox: an event is a row queued in the same transaction as the change it tells of, delivered later by
 * the worker (worker.ts), which takes each with a lease and records every attempt.
 */
import { sortableId } from '../platform/ids';
import { dueInOutbox, takeFromOutbox } from '../platform/outbox';
import type { Store } from '../store/store';
import type { WebhookAttemptRow, WebhookEventRow, WebhookEventType } from './tables';

/** The store signal of a queued event: the delivery worker of this process wakes at once (others find it by polling). */
export const EVENT_QUEUED = 'webhook-event-queued';

/** A webhook message id that sorts by when it was made: events of one transaction are sent in the order queued. */
const nextEventId = (t: number): string => sortableId('msg', t);

/**
 * Queues a webhook event in the caller's transaction, with the id of the request that caused it; the worker is woken
 * after the commit. Answers the event's id.
 */
export async function enqueueEvent(store: Store, type: WebhookEventType, data: unknown): Promise<string> {
  const t = store.now();
  const id = nextEventId(t);
  const payload = JSON.stringify({ id, type, createdAt: new Date(t).toISOString(), data });
  // The bill it tells of, so a bill's events are found without reading every payload (the desk's bill page).
  const billOid = (data as { objectOID?: unknown } | null)?.objectOID;
  const event = {
    id,
    type,
    payload,
    state: 'pending',
    attempts: 0,
    next_attempt_at: t,
    lease_until: null,
    created_at: t,
    request_id: store.requestId,
    bill_oid: typeof billOid === 'string' ? billOid : null,
  } as const;
  await store.db.insertInto('webhook_events').values(event).execute();
  store.signal(EVENT_QUEUED);
  return id;
}

/** A bill's webhook events, oldest first, each with its delivery attempts (the desk's bill page). */
export async function eventsOfBill(store: Store, billOid: string): Promise<(WebhookEventRow & { deliveries: WebhookAttemptRow[] })[]> {
  const events = await store.db.selectFrom('webhook_events').selectAll().where('bill_oid', '=', billOid).orderBy('id').limit(200).execute();
  if (events.length === 0) return [];
  const attempts = await store.db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where(
      'event_id',
      'in',
      events.map((event) => event.id),
    )
    .orderBy('id')
    .execute();
  return events.map((event) => ({ ...event, deliveries: attempts.filter((attempt) => attempt.event_id === event.id) }));
}

/** Ids of pending events due now and not held by a live lease. */
export const dueWebhookEvents = (store: Store, limit: number): Promise<string[]> => dueInOutbox(store, 'webhook_events', limit);

/** Takes a due event for delivery until `leaseUntil`: of several workers only one gets it (answers the event). */
export const claimWebhookEvent = (store: Store, id: string, leaseUntil: number): Promise<WebhookEventRow | undefined> =>
  takeFromOutbox(store, 'webhook_events', id, leaseUntil, true);

/** Records one delivery attempt and the event's next state, releasing the lease. */
export async function recordWebhookAttempt(
  store: Store,
  attempt: Omit<WebhookAttemptRow, 'id'>,
  next: Pick<WebhookEventRow, 'state' | 'attempts' | 'next_attempt_at' | 'delivered_at'>,
): Promise<void> {
  await store.db.insertInto('webhook_attempts').values(attempt).execute();
  await store.db.updateTable('webhook_events').set({ ...next, lease_until: null }).where('id', '=', attempt.event_id).execute();
}

/** The events waiting to be delivered, and when the oldest of them was queued (null: none waits). */
export async function outboxBacklog(store: Store): Promise<{ pending: number; oldestCreatedAt: number | null }> {
  const row = await store.db
    .selectFrom('webhook_events')
    .select((eb) => [eb.fn.countAll<number | string>().as('pending'), eb.fn.min('created_at').as('oldest')])
    .where('state', '=', 'pending')
    .executeTakeFirstOrThrow();
  return { pending: Number(row.pending), oldestCreatedAt: row.oldest === null ? null : Number(row.oldest) };
}
