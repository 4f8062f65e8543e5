/**
 * The status poll: every payer waiting for a result asks every 5 s, so its answer is one database read. That read
 * joins three domains' tables (the session's CSRF token, the bill, the attempt) in one round trip; it lives here, with
 * the poll, rather than split into one query per domain, because three round trips per poll per payer is what the
 * benchmark's figures would pay for.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { csrfRefusal, keepAlive, tokenMatches } from '../accounts/sessions';
import { first } from '../store/database';
import { prepared } from '../store/prepared';
import type { Store } from '../store/store';
import type { AppOptions } from '../config';
import type { Gateway } from './gatewayPort';
import type { FiscalDefaults } from '../billing/fiscalCodes';
import { receiptOf, type Receipt } from './receipt';
import { paymentStatusOf, type StoredPaymentStatus as PaymentStatus } from '../lifecycle/attempt';
import { toRoubles } from '../platform/money';
import { attemptNameColumns, namesToTry, type AttemptName } from './queries';

// The session's CSRF token and times (it may have ended), the bill (to tell a wrong link; the page names it by its link
// id) and the status of the order if it is that bill's, the order looked up by one of its names (one column). Each a
// lookup by a unique index; a prepared statement on PostgreSQL, one per name (a statement's shape is fixed).
const pollReadBy = (name: AttemptName) =>
  prepared(
    (db, a: { sessionId: string; id: string; billLink: string }) =>
      db
        .selectFrom(db.selectNoFrom(sql<number>`1`.as('one')).as('poll'))
        .leftJoin('sessions', (join) => join.on('sessions.id', '=', a.sessionId))
        .leftJoin('bills', (join) => join.on('bills.link_id', '=', a.billLink))
        .leftJoin('payment_attempts', (join) => join.onRef('payment_attempts.bill_oid', '=', 'bills.oid').on(`payment_attempts.${attemptNameColumns[name]}`, '=', a.id))
        .select([
          'sessions.csrf_token',
          'sessions.created_at as session_created_at',
          'sessions.seen_at as session_seen_at',
          'bills.link_id as bill',
          // A bill paid by another attempt meanwhile: the poll says so rather than wait for a bank that never answers.
          'bills.status as bill_status',
          'payment_attempts.status',
          'payment_attempts.order_id',
          'payment_attempts.acquirer_checked_at',
          // A bill that captures by hand: the payer hears that the money is held, how much and until when.
          'payment_attempts.state',
          'payment_attempts.held_until',
          'payment_attempts.held_kopecks',
          'payment_attempts.amount_kopecks',
        ]),
    { name: { ours: 'pollStatus', qr: 'pollStatusByQr', acquirer: 'pollStatusByAcquirerOrder' }[name] },
  );

const pollReads = { ours: pollReadBy('ours'), qr: pollReadBy('qr'), acquirer: pollReadBy('acquirer') };

const nothingFound = {
  csrf_token: null,
  session_created_at: null,
  session_seen_at: null,
  bill: null,
  bill_status: null,
  status: null,
  order_id: null,
  acquirer_checked_at: null,
  state: null,
  held_until: null,
  held_kopecks: null,
  amount_kopecks: null,
};

/**
 * The status poll's read: the CSRF token and times of the session (null: no such session), the bill named by its
 * link id (`bill`, that link id; null: no such bill) and the order's status (null: no such order of this bill). The
 * page names the order by whichever name it has (`namesToTry`): one read when the likeliest name is the right one, one
 * more per name tried only while the bill is found and the order is not.
 */
export async function pollStatus(store: Store, sessionId: string, orderId: string, billLink: string) {
  const read = { sessionId, id: orderId, billLink };
  let found: Awaited<ReturnType<typeof readBy>> = nothingFound;
  for (const name of namesToTry(orderId)) {
    found = await readBy(store, name, read);
    if (found.bill === null || found.order_id !== null) return found;
  }
  return found;
}

const readBy = async (store: Store, name: AttemptName, a: { sessionId: string; id: string; billLink: string }) => first(await pollReads[name](store, a)) ?? nothingFound;

export interface PollRequest {
  sessionId: string;
  /** The CSRF header as it came: compared here, in the poll's own read, instead of in a read of its own. */
  csrfToken: unknown;
  orderId: string;
  /** The bill's link id, as the page names it. */
  billLink: string;
  /** The poll's own request: a reconcile it starts is part of it. */
  requestId: string;
}

/** Refused: no such live session or a wrong token. No bill, no order (of this bill), or the order's status. */
export type PollAnswer =
  | { kind: 'refused' }
  | { kind: 'no-bill' }
  | { kind: 'no-order' }
  | { kind: 'status'; status: PaymentStatus; billLink: string; receipt?: Receipt }
  /** Held on the card (capture or release to come): the amount held, roubles, and the time the hold ends by, ISO. */
  | { kind: 'held'; billLink: string; hold: { amount: number; until: string } }
  /** The hold was let go with nothing taken. */
  | { kind: 'released'; billLink: string };

/**
 * A poll's answer as the status poll sends it (a result page carries its first one): refused 403, no bill 404, no
 * order of this bill `status: null` ("Order not found": no objectOID), else the status with the bill's link id as the
 * page named it, and a final status's receipt.
 */
export function pollReply(answer: PollAnswer) {
  switch (answer.kind) {
    case 'refused':
      return { status: 403 as const, body: csrfRefusal };
    case 'no-bill':
      return { status: 404 as const, body: { success: false, error: 'Документ не найден' } };
    case 'no-order':
      return { status: 200 as const, body: { success: true, status: null } };
    case 'status':
      return { status: 200 as const, body: { success: true, status: answer.status, objectOID: answer.billLink, ...(answer.receipt ? { receipt: answer.receipt } : {}) } };
    case 'held':
      return { status: 200 as const, body: { success: true, status: 'held' as const, objectOID: answer.billLink, hold: answer.hold } };
    case 'released':
      return { status: 200 as const, body: { success: true, status: 'released' as const, objectOID: answer.billLink } };
  }
}

export interface PollDeps {
  gateway: Pick<Gateway, 'on'>;
  /** A pending attempt not heard of for this long is reconciled in the background. */
  reconcileAfterMs: number;
  log: (message: string, error: unknown) => void;
  /** The fiscal codes of a bill without positions of its own, for its receipt's one position. */
  fiscal: FiscalDefaults;
}

/** The poll's dependencies from the app: its gateway, the reconcile delay and fiscal defaults, its log. */
export const pollDepsOf = (app: FastifyInstance, options: AppOptions): PollDeps => ({
  gateway: app.gateway,
  reconcileAfterMs: options.reconcileAfterMs,
  fiscal: options.fiscal,
  log: (message, error) => app.log.warn({ err: error }, message),
});

/** Answers a poll from one read; only a final word costs one more, for its receipt. */
export async function pollPayment(store: Store, deps: PollDeps, poll: PollRequest): Promise<PollAnswer> {
  const found = await pollStatus(store, poll.sessionId, poll.orderId, poll.billLink);
  if (!tokenMatches(found.csrf_token, poll.csrfToken)) return { kind: 'refused' };
  // An ended session is refused like a missing one (a live one has its last-seen time written once a minute).
  const times = { created_at: found.session_created_at!, seen_at: found.session_seen_at! };
  if (!(await keepAlive(store, poll.sessionId, times))) return { kind: 'refused' };
  if (!found.bill) return { kind: 'no-bill' };
  // An order of another bill is as unknown as no order.
  if (!found.status || !found.order_id) return { kind: 'no-order' };
  // A hold is neither pending nor paid to the payer: the money is blocked until the merchant captures or releases it
  // (a capture or release under way is still a hold until the bank confirms it).
  const apiStatus = found.state ? paymentStatusOf(found.state) : null;
  if (apiStatus === 'held') {
    const held = found.held_kopecks ?? found.amount_kopecks ?? 0;
    return { kind: 'held', billLink: found.bill, hold: { amount: toRoubles(held), until: new Date(found.held_until ?? store.now()).toISOString() } };
  }
  if (apiStatus === 'released') return { kind: 'released', billLink: found.bill };
  if (found.status === 'created' && found.bill_status !== 'paid') {
    // Not heard of lately: ask the acquirer in the background (a lost callback never leaves a paid payer waiting);
    // this poll answers from the database at once, a later one sees the outcome.
    if ((found.acquirer_checked_at ?? 0) < store.now() - deps.reconcileAfterMs) deps.gateway.on(store.forRequest(poll.requestId)).reconcileSoon(found.order_id);
    return { kind: 'status', status: found.status, billLink: found.bill };
  }
  const status = found.status === 'created' ? await statusOfPaidElsewhere(deps.gateway.on(store.forRequest(poll.requestId)), deps.log, found.order_id) : found.status;
  if (status === 'created') return { kind: 'status', status, billLink: found.bill };
  // A final word comes once per payment: only then one more read, for the receipt; the 5 s polls stay one read.
  const receipt = await receiptOf(store, found.order_id, deps.fiscal);
  return { kind: 'status', status, billLink: found.bill, ...(receipt ? { receipt } : {}) };
}

/**
 * Still waiting, and the bill was paid by another attempt (another tab, another payer): this one can no longer
 * succeed, so the payer hears now that the bill is paid rather than wait: 'declined', its receipt saying the bill is
 * paid. But the payer may have paid this one too, its callback not in yet (sent back from the acquirer's form, the
 * result page polls at once): the acquirer is asked first, so such a payer hears 'refunded', never that nothing
 * happened. 'created' when the acquirer could not say (unreachable, or a callback being applied right now): the next
 * poll decides.
 */
async function statusOfPaidElsewhere(gateway: Pick<Gateway, 'askAcquirer'>, log: PollDeps['log'], orderId: string): Promise<PaymentStatus> {
  const { attempt, answered } = await gateway.askAcquirer(orderId).catch((error: unknown) => {
    log(`the acquirer could not say how a payment of a paid bill ended (order ${orderId})`, error);
    return { attempt: undefined, answered: false };
  });
  if (!attempt) return 'created';
  if (attempt.status !== 'created') return attempt.status;
  // Never sent to the acquirer (nothing could be paid), or the acquirer says it is not paid: the bill is paid elsewhere.
  return attempt.register_started_at === null || answered ? 'declined' : 'created';
}
