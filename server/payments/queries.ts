/** The payments queries: payment attempts, alone or with their bill's and payment type's columns. */
import type { BillRow, PaymentTypeRow } from '../billing/tables';
import { statesWithStatus, type AttemptState } from '../lifecycle/attempt';
import { attemptLifecycle } from '../lifecycle/lifecycles';
import { begin } from '../lifecycle/writer';
import { first } from '../store/database';
import { prepared } from '../store/prepared';
import type { Store } from '../store/store';
import { POINT } from '../../src/services/rules/pricing';
import type { ChargedPosition } from './chargedItems';
import type { AttemptItemRow, AttemptRow, NewAttempt, PaymentStatus } from './tables';

/** What the change feed hears when an attempt reaches a final status (its chart's 'announce the status', moves.ts). */
export interface AttemptStatusChange {
  kind: 'attempt-status';
  orderId: string;
  billOid: string;
  status: PaymentStatus;
}

declare module '../store/changeFeed' {
  interface Changes {
    'attempt-status': AttemptStatusChange;
  }
}

/** A payment attempt with its method's code (the payment type's), as the merchant API shows it. */
export type AttemptWithMethod = AttemptRow & { method: PaymentTypeRow['code'] };

/** Where a page of attempts starts: after this (created_at, order_id). */
export interface AttemptsPage {
  status?: PaymentStatus;
  since?: number;
  after?: { createdAt: number; orderId: string };
  limit: number;
}

/** Read by every settlement and callback: compiled once per engine. */
const hot = {
  attemptByOrder: prepared((db, a: { orderId: string }) => db.selectFrom('payment_attempts').selectAll().where('order_id', '=', a.orderId)),
};

export const attemptByOrder = async (store: Store, orderId: string): Promise<AttemptRow | undefined> => first(await hot.attemptByOrder(store, { orderId }));

/**
 * The names an attempt goes by, each its own column: our order id, the acquirer's order id (the `orderId` its form
 * appends to the return address, the `mdOrder` of its callbacks) and the fast payment's QR id.
 */
export const attemptNameColumns = { ours: 'order_id', acquirer: 'acquirer_order_id', qr: 'sbp_qrc_id' } as const;
export type AttemptName = keyof typeof attemptNameColumns;

/** Our order ids as `newOrderId` makes them. */
const ourOrderIdShape = /^[0-9a-f]{32}$/;

/**
 * The order to look an id up in when its sender cannot say which name it is: the status request's `transactionID` is
 * the QR's id while a fast payment waits and the result address's `orderId` after the bank's form (the acquirer's) or
 * a reload (ours). Each name is one lookup by one column, the likeliest first: ours when it has our shape, else the
 * QR's (the poll a payer's page repeats while the bank app is open), then the acquirer's.
 */
export const namesToTry = (id: string): readonly AttemptName[] => (ourOrderIdShape.test(id) ? ['ours', 'qr', 'acquirer'] : ['qr', 'acquirer', 'ours']);

/** The attempt by one of its names. */
export const attemptByName = (store: Store, name: AttemptName, id: string): Promise<AttemptRow | undefined> =>
  store.db.selectFrom('payment_attempts').selectAll().where(attemptNameColumns[name], '=', id).executeTakeFirst();

/** The attempt the acquirer knows by this order id of its own (its callbacks' `mdOrder`). */
export const attemptByAcquirerOrder = (store: Store, acquirerOrderId: string) => attemptByName(store, 'acquirer', acquirerOrderId);

/** The attempt named by an id of unknown kind (a result page's address): each name in turn, see `namesToTry`. */
export async function attemptNamed(store: Store, id: string): Promise<AttemptRow | undefined> {
  for (const name of namesToTry(id)) {
    const attempt = await attemptByName(store, name, id);
    if (attempt) return attempt;
  }
  return undefined;
}

/** The bill's pending attempt for this type and amounts (there is at most one: a unique index says so). */
export const pendingAttempt = (store: Store, billOid: string, typeOid: string, amountKopecks: number, points: number, partKopecks: number): Promise<AttemptRow | undefined> =>
  store.db
    .selectFrom('payment_attempts')
    .selectAll()
    .where('bill_oid', '=', billOid)
    .where('card_type_oid', '=', typeOid)
    .where('amount_kopecks', '=', amountKopecks)
    .where('points_used', '=', points)
    .where('part_kopecks', '=', partKopecks)
    .where('status', '=', 'created')
    .executeTakeFirst();

export const pendingAttemptsOfBill = (store: Store, billOid: string): Promise<AttemptRow[]> =>
  store.db.selectFrom('payment_attempts').selectAll().where('bill_oid', '=', billOid).where('status', '=', 'created').orderBy('created_at').execute();

/** A bill's attempts in one state of their chart, oldest first. */
export const attemptsInStateOfBill = (store: Store, billOid: string, state: AttemptState): Promise<AttemptRow[]> =>
  store.db.selectFrom('payment_attempts').selectAll().where('bill_oid', '=', billOid).where('state', '=', state).orderBy('created_at').execute();

/** Records a new attempt, in its chart's first state, and answers it as stored. */
export function insertAttempt(store: Store, attempt: NewAttempt): Promise<AttemptRow> {
  const t = store.now();
  return begin(store, attemptLifecycle, { ...attempt, created_at: t, updated_at: t });
}

/**
 * Who pays a pending attempt: the receipt e-mail, the signed-in user, the manager and the session of the latest request.
 * Answers the attempt as it now is, or undefined when it was not pending any more.
 */
export const setAttemptPayer = (store: Store, orderId: string, payer: Pick<AttemptRow, 'email' | 'user_oid' | 'manager_id' | 'session_id'>): Promise<AttemptRow | undefined> =>
  store.db
    .updateTable('payment_attempts')
    .set({ ...payer, updated_at: store.now() })
    .where('order_id', '=', orderId)
    .where('status', '=', 'created')
    .returningAll()
    .executeTakeFirst();

/**
 * The bill's open attempt (the latest still waiting for its bank) with its type's code, in one read: what a reload
 * resumes. undefined when there is none.
 */
export const openAttemptOfBill = (store: Store, billOid: string) =>
  store.db
    .selectFrom('payment_attempts')
    .innerJoin('payment_types', 'payment_types.oid', 'payment_attempts.card_type_oid')
    .selectAll('payment_attempts')
    .select(['payment_types.code as type_code', 'payment_types.name as type_name'])
    .where('payment_attempts.bill_oid', '=', billOid)
    .where('payment_attempts.status', '=', 'created')
    // Registered at the acquirer: an attempt whose order was never made has no form or QR to go back to.
    .where('payment_attempts.acquirer_order_id', 'is not', null)
    .orderBy('payment_attempts.created_at', 'desc')
    .orderBy('payment_attempts.order_id')
    .limit(1)
    .executeTakeFirst();

/**
 * The bill's hold let go last (by the merchant or by the clock), when no attempt was made since it was let go;
 * undefined otherwise. An attempt made at the very moment of the release counts as made after it.
 */
export async function lastReleasedHoldOfBill(store: Store, billOid: string): Promise<AttemptRow | undefined> {
  const released = await store.db
    .selectFrom('payment_attempts')
    .selectAll()
    .where('bill_oid', '=', billOid)
    .where('state', '=', 'released')
    .orderBy('updated_at', 'desc')
    .orderBy('order_id')
    .limit(1)
    .executeTakeFirst();
  if (!released) return undefined;
  const since = await store.db
    .selectFrom('payment_attempts')
    .select('order_id')
    .where('bill_oid', '=', billOid)
    .where('order_id', '!=', released.order_id)
    .where('created_at', '>=', released.updated_at)
    .limit(1)
    .executeTakeFirst();
  return since ? undefined : released;
}

/** An attempt with its bill and its type's name, in one read: what its receipt says. */
export const receiptOfOrder = (store: Store, orderId: string) =>
  store.db
    .selectFrom('payment_attempts')
    .innerJoin('bills', 'bills.oid', 'payment_attempts.bill_oid')
    .innerJoin('payment_types', 'payment_types.oid', 'payment_attempts.card_type_oid')
    .selectAll('payment_attempts')
    .select([
      'bills.purpose',
      'bills.sum_kopecks as bill_sum_kopecks',
      'bills.status as bill_status',
      // Whether the bill still takes a payment (a closed one is said as closed on the receipt).
      'bills.state as bill_state',
      'bills.closed_as as bill_closed_as',
      'bills.expires_at as bill_expires_at',
      'bills.return_url',
      'bills.part_minimum_kopecks',
      'bills.handed_over_at',
      'payment_types.code as type_code',
      'payment_types.name as type_name',
    ])
    .where('payment_attempts.order_id', '=', orderId)
    .executeTakeFirst();

/** Attempts with their method codes, in (created_at, order_id) order. */
const withMethod = (store: Store) =>
  store.db
    .selectFrom('payment_attempts')
    .innerJoin('payment_types', 'payment_types.oid', 'payment_attempts.card_type_oid')
    .selectAll('payment_attempts')
    .select('payment_types.code as method');

/** A bill's attempts with their method codes, oldest first. */
/**
 * What of its bill a payment pays. One made before parts were recorded paid the whole bill, which is what its amount
 * is made of: the part, plus the fee, less the points.
 */
export const partOf = (attempt: Pick<AttemptRow, 'part_kopecks' | 'amount_kopecks' | 'commission_kopecks' | 'points_used'>): number =>
  attempt.part_kopecks ?? attempt.amount_kopecks - attempt.commission_kopecks + attempt.points_used * POINT;

/**
 * What a bill's successful payments have paid of it: their parts. Refunds do not count here: a refund gives money
 * back, it does not reopen the bill to pay again.
 */
export async function partsPaidOfBill(store: Store, bill: Pick<BillRow, 'oid'>): Promise<number> {
  const rows = await store.db
    .selectFrom('payment_attempts')
    .select(['part_kopecks', 'amount_kopecks', 'commission_kopecks', 'points_used'])
    .where('bill_oid', '=', bill.oid)
    .where('status', '=', 'success')
    .execute();
  return rows.reduce((sum, row) => sum + partOf(row), 0);
}

/** Whether a successful payment of the bill spent points. */
export const pointsSpentOnBill = async (store: Store, billOid: string): Promise<boolean> =>
  (await store.db.selectFrom('payment_attempts').select('order_id').where('bill_oid', '=', billOid).where('status', '=', 'success').where('points_used', '>', 0).executeTakeFirst()) !== undefined;

export const paymentsOfBill = (store: Store, billOid: string): Promise<AttemptWithMethod[]> =>
  withMethod(store).where('payment_attempts.bill_oid', '=', billOid).orderBy('payment_attempts.created_at').orderBy('payment_attempts.order_id').execute();

/** One attempt with its method code. */
export const paymentByOrder = (store: Store, orderId: string): Promise<AttemptWithMethod | undefined> =>
  withMethod(store).where('payment_attempts.order_id', '=', orderId).executeTakeFirst();

/** A page of every bill's attempts in (created_at, order_id) order, for reconciliation. */
export function paymentsPage(store: Store, page: AttemptsPage): Promise<AttemptWithMethod[]> {
  let query = withMethod(store);
  // The API's status is the state's (a hold is stored as pending): filter by the states that show it.
  if (page.status) query = query.where('payment_attempts.state', 'in', statesWithStatus(page.status));
  if (page.since !== undefined) query = query.where('payment_attempts.created_at', '>=', page.since);
  const after = page.after;
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('payment_attempts.created_at', '>', after.createdAt),
        eb.and([eb('payment_attempts.created_at', '=', after.createdAt), eb('payment_attempts.order_id', '>', after.orderId)]),
      ]),
    );
  }
  return query.orderBy('payment_attempts.created_at').orderBy('payment_attempts.order_id').limit(page.limit).execute();
}

/** Stores an attempt's positions as charged, numbered 1, 2, … as the receipt sends them. */
export async function insertAttemptItems(store: Store, orderId: string, positions: readonly ChargedPosition[]): Promise<void> {
  if (positions.length === 0) return;
  await store.db
    .insertInto('attempt_items')
    .values(
      positions.map((position, i) => ({
        order_id: orderId,
        position_id: i + 1,
        bill_position: position.billPosition,
        name: position.name,
        quantity_milli: position.quantityMilli,
        price_kopecks: position.priceKopecks,
        amount_kopecks: position.amountKopecks,
        vat: position.vat,
        payment_method: position.paymentMethod,
        payment_object: position.paymentObject,
        measure: position.measure,
      })),
    )
    .execute();
}

/** An attempt's positions as charged, in the receipt's order. */
export const itemsOfAttempt = (store: Store, orderId: string): Promise<AttemptItemRow[]> =>
  store.db.selectFrom('attempt_items').selectAll().where('order_id', '=', orderId).orderBy('position_id').execute();

/** The positions of several attempts at once (a page of payments), by order. */
export async function itemsOfAttempts(store: Store, orderIds: readonly string[]): Promise<Map<string, AttemptItemRow[]>> {
  const byOrder = new Map<string, AttemptItemRow[]>();
  if (orderIds.length === 0) return byOrder;
  const rows = await store.db.selectFrom('attempt_items').selectAll().where('order_id', 'in', orderIds).orderBy('order_id').orderBy('position_id').execute();
  for (const row of rows) byOrder.set(row.order_id, [...(byOrder.get(row.order_id) ?? []), row]);
  return byOrder;
}
