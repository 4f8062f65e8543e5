/**
 * The gateway's reads and writes of a payment attempt's acquirer columns (the table is payments'): what the acquirer
 * answered, and the lease that keeps one request in flight per attempt (registering, reading, refunding). What changes
 * the attempt's state (register.do sent, the order known) is a move of its chart, with these facts.
 */
import { moveAttempt } from '../payments/moves';
import type { AttemptRow } from '../payments/tables';
import { takeLease } from '../platform/lease';
import type { Store } from '../store/store';

/** What the acquirer answered about an attempt's order, as stored on the attempt. */
export type AcquirerFacts = Partial<
  Pick<AttemptRow, 'acquirer_order_id' | 'form_url' | 'sbp_qrc_id' | 'sbp_payload' | 'sbp_image' | 'acquirer_checked_at' | 'action_code' | 'masked_pan'>
>;

/** Stores what the acquirer answered about an attempt's order that changes no state (its fast-payment QR). */
export const recordAcquirerFacts = (store: Store, orderId: string, facts: AcquirerFacts): Promise<AttemptRow | undefined> =>
  store.db.updateTable('payment_attempts').set({ ...facts, updated_at: store.now() }).where('order_id', '=', orderId).returningAll().executeTakeFirst();

/**
 * The acquirer's order of the attempt is known (register.do answered, or the order was found by our order number): the
 * attempt's chart moves it to registered, with the order's facts. Answers the attempt as it now is.
 */
export async function recordOrder(store: Store, orderId: string, facts: AcquirerFacts): Promise<AttemptRow> {
  const moved = await moveAttempt(store, orderId, { type: 'acquirer.registered' }, { ...facts, updated_at: store.now() });
  if (moved.kind === 'missing') throw new Error(`no attempt ${orderId}`);
  return moved.row;
}

/**
 * register.do is about to be sent for the first time (an order may exist from now on even without an answer): the
 * attempt's chart moves it to registering, with the order's session end; false when its chart refuses (its bill closed
 * meanwhile, or it was marked before).
 */
export const markRegisterStarted = async (store: Store, orderId: string, expiresAt: number): Promise<boolean> =>
  (await moveAttempt(store, orderId, { type: 'register.sent' }, { register_started_at: store.now(), expires_at: expiresAt })).kind === 'moved';

/**
 * Claims the right to talk to the acquirer about an attempt until `until` (one request in flight per attempt across
 * processes): a conditional UPDATE that only one claimant wins while the lease lasts.
 */
export const claimAttemptLease = (store: Store, orderId: string, until: number): Promise<boolean> =>
  takeLease(store, 'payment_attempts', { order_id: orderId }, 'lease_until', until);

/**
 * Gives the lease back, only if it is still the one claimed until `until`: a holder slower than its lease must not end
 * the lease of the request that claimed it after it ran out.
 */
export async function releaseAttemptLease(store: Store, orderId: string, until: number): Promise<void> {
  await store.db.updateTable('payment_attempts').set({ lease_until: null }).where('order_id', '=', orderId).where('lease_until', '=', until).execute();
}

/** Runs `work` holding the attempt's lease until `until`; answers undefined when someone else holds it. */
export async function withAttemptLease<T>(store: Store, orderId: string, until: number, work: () => Promise<T>): Promise<T | undefined> {
  if (!(await claimAttemptLease(store, orderId, until))) return undefined;
  try {
    return await work();
  } finally {
    await releaseAttemptLease(store, orderId, until);
  }
}

/** The acquirer's status of the attempt's order was read now. */
export async function markAcquirerChecked(store: Store, orderId: string): Promise<void> {
  await store.db.updateTable('payment_attempts').set({ acquirer_checked_at: store.now() }).where('order_id', '=', orderId).execute();
}

/** Pending attempts that went to the acquirer, least recently asked first (the sweeper's work). */
export const attemptsToReconcile = (store: Store, limit: number): Promise<AttemptRow[]> =>
  store.db.selectFrom('payment_attempts').selectAll().where('status', '=', 'created').where('register_started_at', 'is not', null).orderBy('updated_at').limit(limit).execute();
