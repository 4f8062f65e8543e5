/**
 * A bill as the desk shows it: the merchant API's view of it (positions, payments with their receipts), and around it
 * what the desk adds: the pay link's QR, each payment's refunds and the actions the member of staff may take on it,
 * the webhooks the bill caused with their deliveries, the links sent, and the audit lines about it.
 *
 * A payment's actions, and the bill's own, are lists the page renders the same way whatever they are (a button, then
 * a confirmation): a payment's refund, a hold's capture and release; a paid bill's handover (its closing receipts).
 * Each is offered only to a role that may do it, and only while the domain would take it.
 */
import type { FiscalSettings } from '../billing/fiscalCodes';
import { billByOid } from '../billing/queries';
import { eventsOfBill } from '../merchant/outbox';
import { billView, iso, money, refundView } from '../merchant/views';
import { canHandOver } from '../payments/closingReceipts';
import { attemptByOrder } from '../payments/queries';
import { itemsOfRefund, refundsOfOrder } from '../payments/refundQueries';
import { refundableOf } from '../payments/refunds';
import type { Store } from '../store/store';
import { may } from '../../src/desk/services/rules/permissions';
import type { Staff } from './access';
import { auditOf } from './audit';
import { DeskError } from './errors';
import { sendsOfBill } from './links';
import { qrPngDataUrl } from '../platform/qrPng';

/** What a member of staff may do to a payment now; the page confirms each before it is done. */
export type PaymentAction =
  | { kind: 'refund'; max: ReturnType<typeof money> }
  /** Take all that is held or a part (`max` what is held); the rest is released. */
  | { kind: 'capture'; max: ReturnType<typeof money> }
  /** Let all that is held go. */
  | { kind: 'release'; max: ReturnType<typeof money> };

/** What a member of staff may do to the bill itself now: mark its goods handed over (its closing receipts). */
export type BillAction = { kind: 'handover'; max: ReturnType<typeof money> };

export interface BillPageDeps {
  store: Store;
  publicUrl: string;
  fiscal: FiscalSettings;
  /** Whether e-mail can be sent at all (the page hides the e-mail button otherwise). */
  mail: boolean;
}

export async function billPage(deps: BillPageDeps, staff: Staff, oid: string) {
  const { store } = deps;
  const bill = await billByOid(store, oid);
  if (!bill) throw new DeskError(404, 'not_found', 'Счет не найден');
  const view = await billView(store, bill, deps.publicUrl, deps.fiscal);
  const payments = await Promise.all(
    view.payments.map(async (payment) => {
      const attempt = (await attemptByOrder(store, payment.orderId))!;
      const refunds = await refundsOfOrder(store, payment.orderId);
      const refundable = await refundableOf(store, attempt);
      const actions: PaymentAction[] = [];
      if (may(staff.role, 'payments.refund') && refundable > 0) actions.push({ kind: 'refund', max: money(refundable) });
      if (may(staff.role, 'payments.capture') && attempt.state === 'held') {
        const held = money(attempt.held_kopecks ?? attempt.amount_kopecks);
        actions.push({ kind: 'capture', max: held }, { kind: 'release', max: held });
      }
      return {
        ...payment,
        refundable: money(refundable),
        refunds: await Promise.all(refunds.map(async (refund) => refundView(refund, await itemsOfRefund(store, refund.id)))),
        actions,
      };
    }),
  );
  const [events, sends, history] = await Promise.all([eventsOfBill(store, oid), sendsOfBill(store, oid), auditOf(store, [oid, ...view.payments.map((payment) => payment.orderId)])]);
  const qr = qrPngDataUrl(view.payUrl, { errorCorrectionLevel: 'M', margin: 1, width: 240 });
  // Offered only when there is a prepayment to close: a bill paid with points alone, or by receipts that were full
  // payments already, would be refused.
  const actions: BillAction[] = may(staff.role, 'handover.mark') && (await canHandOver(store, bill, deps.fiscal.ffd)) ? [{ kind: 'handover', max: view.amount }] : [];
  return {
    bill: { ...view, payments },
    actions,
    payLink: { url: view.payUrl, qr },
    canSend: { sms: may(staff.role, 'links.send'), email: may(staff.role, 'links.send') && deps.mail },
    webhooks: events.map((event) => ({
      id: event.id,
      type: event.type,
      state: event.state,
      attempts: event.attempts,
      createdAt: iso(event.created_at)!,
      deliveredAt: iso(event.delivered_at),
      deliveries: event.deliveries.map((delivery) => ({
        at: iso(delivery.attempted_at)!,
        url: delivery.url,
        statusCode: delivery.status_code,
        error: delivery.error,
        durationMs: delivery.duration_ms,
      })),
    })),
    sends: sends.map((send) => ({
      id: send.id,
      channel: send.channel,
      to: send.recipient,
      state: send.state,
      error: send.error,
      by: send.staff_email,
      at: iso(send.created_at)!,
    })),
    history: history.map((line) => ({ id: line.id, action: line.action, subject: line.subject, by: line.staff_email, at: iso(line.created_at)!, details: line.details ? (JSON.parse(line.details) as unknown) : null })),
  };
}

export type BillPage = Awaited<ReturnType<typeof billPage>>;
