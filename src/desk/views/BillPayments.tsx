import { useSelector } from '../../views/useSelector';
import type { BillActor } from '../machines/bill';
import { formatMoment, formatMoney } from '../services/format';
import { closingReceiptStatusNames, deskMessages, methodNames, paymentStatusNames, refundStatusNames } from '../services/messages';
import type { BillPage, DeskAction, Payment } from '../services/types';

/**
 * A bill's money as its page shows it: each payment (its part, its hold and when it ends, refunds, receipts) with the
 * actions the role may take on it, the closing receipts, and the buttons of the actions offered.
 */

const m = deskMessages.bill;

export function Payments({ actor, page }: { actor: BillActor; page: BillPage }) {
  const idle = useSelector(actor, (state) => state.matches({ ready: 'idle' }));
  const payments = page.bill.payments;
  return (
    <section className="panel" aria-labelledby="payments">
      <h2 id="payments">{m.payments}</h2>
      {payments.length === 0 ? <p className="muted">{m.noPayments}</p> : null}
      {payments.map((payment) => (
        <PaymentItem key={payment.orderId} payment={payment} disabled={!idle} onAction={(action) => actor.send({ type: 'action.open', subject: payment.orderId, action })} />
      ))}
    </section>
  );
}

/** A paid bill's closing receipts (full settlement, sent at its handover) and where each stands. */
export function ClosingReceipts({ page }: { page: BillPage }) {
  const receipts = page.bill.closingReceipts;
  if (receipts.length === 0) return null;
  return (
    <>
      <h3>{m.closingReceipts}</h3>
      <ul className="list-plain">
        {receipts.map((receipt) => (
          <li key={receipt.orderId}>
            {m.closingReceipt(formatMoney(receipt.amount), closingReceiptStatusNames[receipt.status] ?? receipt.status)}
            <span className="muted"> · № {receipt.orderId}</span>
            {receipt.error ? <span className="muted"> · {receipt.error}</span> : null}
          </li>
        ))}
      </ul>
    </>
  );
}

/** The actions offered (the server offers only what the role may do and the domain would take): a button each. */
export function ActionButtons<A extends DeskAction>({ actions, label, disabled, onAction }: { actions: readonly A[]; label: string; disabled: boolean; onAction: (action: A) => void }) {
  const known = actions.filter((action) => deskMessages.action.buttons[action.kind] !== undefined);
  if (known.length === 0) return null;
  return (
    <div className="row" role="group" aria-label={label}>
      {known.map((action) => (
        <button key={action.kind} type="button" className={action.kind === 'release' ? 'button secondary' : 'button'} disabled={disabled} onClick={() => onAction(action)}>
          {deskMessages.action.buttons[action.kind]}
        </button>
      ))}
    </div>
  );
}

function PaymentItem({ payment, disabled, onAction }: { payment: Payment; disabled: boolean; onAction: (action: Payment['actions'][number]) => void }) {
  return (
    <article className="payment" aria-labelledby={`payment-${payment.orderId}`}>
      <h3 id={`payment-${payment.orderId}`}>
        {methodNames[payment.method] ?? payment.method} · {formatMoney(payment.amount)} · {paymentStatusNames[payment.status] ?? payment.status}
      </h3>
      <dl className="facts">
        <dt>№</dt>
        <dd>{payment.orderId}</dd>
        <dt>{m.created}</dt>
        <dd>{formatMoment(payment.createdAt)}</dd>
        <dt>{m.part}</dt>
        <dd>{formatMoney(payment.part)}</dd>
        {payment.heldUntil ? (
          <>
            <dt>{m.heldUntil}</dt>
            <dd>{formatMoment(payment.heldUntil)}</dd>
          </>
        ) : null}
        {payment.pointsUsed > 0 ? (
          <>
            <dt>{m.points}</dt>
            <dd>{payment.pointsUsed}</dd>
          </>
        ) : null}
        <dt>{m.refunded}</dt>
        <dd>{formatMoney(payment.refunded)}</dd>
        {payment.status === 'success' ? (
          <>
            <dt>{m.refundable}</dt>
            <dd>{formatMoney(payment.refundable)}</dd>
          </>
        ) : null}
        <dt>{m.receipts}</dt>
        <dd>
          <ul className="list-plain">
            <li>{payment.receipt.issuer === 'acquirer' ? m.receiptByAcquirer : m.receiptByMerchant}</li>
            {payment.refunds.map((refund) => (
              <li key={refund.id}>{m.refundReceipt(refundStatusNames[refund.status] ?? refund.status)}</li>
            ))}
          </ul>
        </dd>
      </dl>
      {payment.refunds.length > 0 ? (
        <>
          <h4>{m.refunds}</h4>
          <ul className="list-plain">
            {payment.refunds.map((refund) => (
              <li key={refund.id}>
                {formatMoment(refund.createdAt)} · {formatMoney(refund.amount)} · {refundStatusNames[refund.status] ?? refund.status}
                {refund.reason ? <span className="muted"> · {refund.reason}</span> : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <ActionButtons actions={payment.actions} label={`${m.payments}: № ${payment.orderId}`} disabled={disabled} onAction={onAction} />
    </article>
  );
}
