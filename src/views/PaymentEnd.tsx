import { useSelector } from './useSelector';
import type { Merchant } from '../services/pageConfig';
import { formatDay, formatMoney } from '../services/format';
import { receiptMessages as t } from '../services/receiptMessages';
import { rub } from '../services/partsWords';
import { paymentKindOf, type PaymentTypeCode } from '../services/rules/paymentKinds';
import { kopecksOf } from '../services/pricing';
import { DeclinedPayment, SupportLine } from './DeclinedPayment';
import { Receipt, webLink } from './Receipt';
import { outcomeOf, StatusBlock, type Outcome, type PaymentStatusActor } from './StatusBlock';

/**
 * 'Попробовать снова': a link back to the bill (the stand-alone result page), with another to pay by fast payment
 * instead, or the checkout's own step back.
 */
export type Retry = { href: string; fastPaymentHref: string } | { onRetry: () => void };

interface Props {
  actor: PaymentStatusActor;
  merchant: Merchant;
  /** Where 'Вернуться в магазин' leads after a success, when the bill has one. */
  returnUrl?: string | null;
  retry: Retry | null;
  /** The bank's widget sent the payer back (`state=return`). */
  cancelled?: boolean;
  quietUntilAnswered?: boolean;
  onReload: () => void;
  /** The bill's own link, where the next part of a bill paid in parts is paid. */
  billHref: string;
}

/** The outcomes after which the payer is shown how to reach the merchant: something did not go as it should. */
const needsSupport: Outcome[] = ['declined', 'cancelled', 'refunded', 'slow', 'order not found'];

/**
 * The end of a payment: the status, then what it means and where to go. Paid: the receipt and the way back
 * to the shop. Declined: what was tried and why, then the ways forward (another card, fast payment, the merchant's
 * support). Cancelled: 'Попробовать снова'. Held (a bill the merchant captures by hand): the amount blocked and until
 * when, no receipt until the capture; released: 'Попробовать снова' back to the bill. A bank that has not confirmed in two minutes: said as it is, with a reload
 * on offer while polling goes on at a slower pace.
 */
export function PaymentEnd({ actor, merchant, returnUrl, retry, cancelled = false, quietUntilAnswered = false, onReload, billHref }: Props) {
  const outcome = useSelector(actor, (state) => outcomeOf(state, { cancelled, quietUntilAnswered }));
  const receipt = useSelector(actor, (state) => state.context.receipt);
  const hold = useSelector(actor, (state) => state.context.hold);
  const shop = webLink(receipt?.returnUrl ?? returnUrl);
  // A payment given back whole went through all the same: its receipt and the way back stay.
  const paid = outcome === 'success' || outcome === 'returned';
  // A part of a bill paid in parts, with more to pay: what remains, and the next part on the same link.
  const remaining = outcome === 'success' && receipt?.remaining ? kopecksOf(receipt.remaining) : 0;
  const note = outcome === 'cancelled' ? t.cancelledNote : outcome === 'bill paid elsewhere' ? t.billPaidElsewhereNote : outcome === 'slow' ? t.slowNote : null;
  // A released hold: the bill's link takes the payment again while the bill is open (the server says if not).
  const canRetry = (outcome === 'declined' || outcome === 'cancelled' || outcome === 'released') && retry;
  // A declined card: another card is what to try first; fast payment is offered beside it when the bill has it.
  const byCard = outcome === 'declined' && receipt?.method && paymentKindOf(receipt.method.code as PaymentTypeCode) === 'redirect';
  const retryText = byCard ? t.anotherCard : t.retry;
  const fastPayment = outcome === 'declined' && receipt && receipt.fastPaymentFee !== null && retry && 'href' in retry ? retry.fastPaymentHref : null;

  return (
    <>
      <StatusBlock actor={actor} quietUntilAnswered={quietUntilAnswered} cancelled={cancelled} />
      {note && <p className="result-note">{note}</p>}
      {outcome === 'held' && hold && (
        <>
          <p className="result-amount">{formatMoney(hold.amount)}</p>
          <p className="result-note">{t.heldNote(formatDay(hold.until))}</p>
        </>
      )}
      {paid && receipt && <Receipt receipt={receipt} merchant={merchant} />}
      {outcome === 'declined' && receipt && <DeclinedPayment receipt={receipt} />}
      {remaining > 0 && <p className="result-note">{`Осталось оплатить ${rub(remaining)}`}</p>}
      <div className="result-actions">
        {remaining > 0 && (
          <a className="button primary" href={billHref}>
            {t.nextPart}
          </a>
        )}
        {paid && shop && (
          <a className={remaining > 0 ? 'button secondary' : 'button primary'} href={shop}>
            {t.backToShop}
          </a>
        )}
        {canRetry &&
          ('href' in retry ? (
            <a className="button primary" href={retry.href}>
              {retryText}
            </a>
          ) : (
            <button type="button" className="button primary" onClick={retry.onRetry}>
              {retryText}
            </button>
          ))}
        {fastPayment && (
          <a className="button secondary" href={fastPayment}>
            {receipt?.fastPaymentFee === 0 ? t.fastPaymentNoFee : t.fastPayment}
          </a>
        )}
        {outcome === 'slow' && (
          <button type="button" className="button secondary" onClick={onReload}>
            {t.reload}
          </button>
        )}
      </div>
      {needsSupport.includes(outcome) && <SupportLine merchant={merchant} />}
    </>
  );
}
