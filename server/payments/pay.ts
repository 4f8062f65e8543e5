/**
 * A Pay: the payer's request to pay a bill by a payment type, with points, as the page sends it. The attempt first (in
 * a transaction, start.ts), then the acquirer's order for it (outside, through the gateway). Twice at most: a pending
 * attempt past its session time-out is reconciled (and ended) first, and an attempt whose card form was lost is
 * ended; either way the second round starts a fresh attempt.
 */
import { pointsConfirmed } from '../accounts/codes';
import { typeOfPage } from '../billing/payLinks';
import { billByLink } from '../billing/queries';
import type { BillRow } from '../billing/tables';
import type { Store } from '../store/store';
import { PaymentRefused } from './errors';
import { AcquirerUnavailable, AttemptAbandoned, type Gateway, type PaymentInfo } from './gatewayPort';
import { paymentStatusOf } from '../lifecycle/attempt';
import { pendingAttemptsOfBill } from './queries';
import { checkPayment, startPayment } from './start';

export interface PayRequest {
  /** The bill as the page names it: by its public link id (billing/payLinks.ts). */
  billLink: string;
  /** The payment type chosen, as the page names it (`<link id>.<code>`); null: none, as when points cover the bill. */
  cardTypeOid: string | null;
  points: number;
  /** What of a bill with parts this payment pays; null: the default (what remains, or the way's cap). */
  partKopecks?: number | null;
  /** The receipt e-mail, the signed-in user and the manager who brought the payer (checked by the caller). */
  email: string | null;
  userOid: string | null;
  managerId: string | null;
  /** The payer's session, where a points code must have proven the customer's phone; the attempt remembers it. */
  sessionId: string;
  /** Orders carry a fiscal receipt (a tax system is configured): it must have somewhere to go. */
  receipts?: boolean;
}

/** Where a fiscal receipt can go: the payer's e-mail, else the bill's e-mail or its customer's e-mail or phone. */
const hasReceiptContact = (request: PayRequest, bill: BillRow) => Boolean(request.email ?? bill.bill_email ?? bill.client_email ?? bill.client_phone);

/** Closed: points covered the bill, no money moves. Pay: what the page needs to pay at the acquirer. */
export type PayAnswer = { kind: 'closed'; orderId: string } | { kind: 'pay'; info: PaymentInfo };

/**
 * Pays as asked, or throws: PaymentRefused for a request that cannot be paid (unknown bill or type, points not
 * confirmed, a closed bill, too many points), AcquirerUnavailable when the acquirer cannot be reached (the attempt is
 * kept: Pay works again once the acquirer is back, with the same attempt and order).
 */
export async function pay(store: Store, gateway: Pick<Gateway, 'paymentInfo' | 'reconcile' | 'abandon'>, request: PayRequest): Promise<PayAnswer> {
  // The merchant's objectOID is as unknown here as any other id: the page knows a bill by its link id only.
  const bill = await billByLink(store, request.billLink);
  if (!bill) throw new PaymentRefused(404, 'Документ не найден');
  const type = request.cardTypeOid ? await typeOfPage(store, bill, request.cardTypeOid) : undefined;
  if (request.cardTypeOid && !type) throw new PaymentRefused(400, 'Неизвестный способ оплаты');
  // Points belong to the customer: spending them needs the customer's phone proven by a use-points code in this
  // session, not just the bill's link.
  if (request.points > 0 && bill.cust_no && !(await pointsConfirmed(store, request.sessionId, bill.cust_no))) {
    throw new PaymentRefused(403, 'Подтвердите списание баллов кодом из СМС');
  }
  const payment = { bill, type, points: request.points, partKopecks: request.partKopecks ?? null, email: request.email, userOid: request.userOid, managerId: request.managerId, sessionId: request.sessionId };
  // A Pay refused ends nothing: it is checked whole before another way's open attempt is declined.
  const checked = await checkPayment(store, payment);
  // Money moves only with a receipt that reaches the payer (points alone move none: no receipt at the acquirer).
  if (!checked.closes && request.receipts && !hasReceiptContact(request, bill)) throw new PaymentRefused(400, 'Укажите e-mail: на него придет чек об оплате');
  await abandonOtherWays(store, gateway, checked.bill, { typeOid: type?.oid ?? null, points: request.points, part: checked.part, sessionId: request.sessionId });
  for (let round = 1; ; round++) {
    const started = await startPayment(store, payment);
    if (started.kind === 'closed') return { kind: 'closed', orderId: started.attempt.order_id };
    const { attempt } = started;
    if (round === 1 && attempt.expires_at !== null && store.now() > attempt.expires_at) {
      await gateway.reconcile(attempt.order_id).catch(() => undefined);
      continue;
    }
    try {
      return { kind: 'pay', info: await gateway.paymentInfo(attempt, started.type, bill) };
    } catch (error) {
      if (!(error instanceof AttemptAbandoned)) throw error;
      if (round === 1) continue;
      throw new AcquirerUnavailable(error);
    }
  }
}

/** The attempt a Pay goes on with: its way, points and part, and the session asking. */
interface Chosen {
  typeOid: string | null;
  points: number;
  part: number;
  sessionId: string;
}

/**
 * Another way chosen while an attempt of the bill is still open at the acquirer (a QR in another tab, a card form left
 * by Back): the open one is declined there first, so that the bill can never be paid twice by the two. The same way
 * with the same points (and part) is the same attempt, found again, and stays open. An open one that turns out paid
 * meanwhile settles paid, and the Pay that follows is refused as for a paid bill. Not answered, the acquirer is asked
 * again by the sweep; a payment that still comes through is refunded as a bill paid twice.
 * A bill in parts is paid by several payers side by side: only what this session itself began is declined (its own
 * way changed), never another payer's part; two parts that together pass the bill have the excess given back.
 */
async function abandonOtherWays(store: Store, gateway: Pick<Gateway, 'abandon'>, bill: BillRow, chosen: Chosen) {
  const open = await pendingAttemptsOfBill(store, bill.oid);
  const inParts = bill.part_minimum_kopecks !== null;
  // A hold is not an open attempt: its money is held already, for the merchant to capture or release.
  const others = open.filter(
    (attempt) =>
      attempt.acquirer_order_id !== null &&
      paymentStatusOf(attempt.state) === 'created' &&
      (!inParts || attempt.session_id === chosen.sessionId) &&
      (attempt.card_type_oid !== chosen.typeOid || attempt.points_used !== chosen.points || (inParts && attempt.part_kopecks !== chosen.part)),
  );
  for (const other of others) await gateway.abandon(other.order_id).catch(() => undefined);
}
