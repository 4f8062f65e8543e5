import { formatMoney } from '../services/format';
import type { Merchant } from '../services/pageConfig';
import { receiptMessages as t } from '../services/receiptMessages';
import { stepMessages } from '../services/stepMessages';
import type { Receipt } from '../services/types';
import { telOf } from './PageHeader';

const d = stepMessages.decline;

/**
 * A declined payment, said as the payer needs it: what was tried (the amount, the way, the card as the bank masks it)
 * and why, in the payer's words with what to do, when the bank said why.
 */
export function DeclinedPayment({ receipt }: { receipt: Receipt }) {
  const way = [receipt.method?.name, receipt.card].filter(Boolean).join(', ');
  return (
    <section className="declined" aria-labelledby="declined-title">
      <h2 id="declined-title" className="visually-hidden">
        {t.declinedTitle}
      </h2>
      <dl className="receipt-rows">
        <div className="receipt-row">
          <dt>{t.declinedAmount}</dt>
          <dd>{formatMoney(receipt.amount)}</dd>
        </div>
        {way && (
          <div className="receipt-row">
            <dt>{t.method}</dt>
            <dd>{way}</dd>
          </div>
        )}
        <div className="receipt-row">
          <dt>{t.declinedReason}</dt>
          <dd>{receipt.declineReason ? d.reasons[receipt.declineReason] : t.noReasonGiven}</dd>
        </div>
      </dl>
      <p className="declined-advice">{receipt.declineReason ? d.advice[receipt.declineReason] : d.noReasonAdvice}</p>
    </section>
  );
}

/** The merchant's support, the last way forward after a failure: their phone and e-mail as links. */
export function SupportLine({ merchant }: { merchant: Merchant }) {
  if (!merchant.supportPhone && !merchant.supportEmail) return null;
  return (
    <p className="result-support">
      {t.support}{' '}
      {merchant.supportPhone && (
        <a className="support-link" href={telOf(merchant.supportPhone)}>
          {merchant.supportPhone}
        </a>
      )}
      {merchant.supportPhone && merchant.supportEmail && ' '}
      {merchant.supportEmail && (
        <a className="support-link" href={`mailto:${merchant.supportEmail}`}>
          {merchant.supportEmail}
        </a>
      )}
    </p>
  );
}
