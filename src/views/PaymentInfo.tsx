import type { Bill } from '../services/types';
import { formatMoney } from '../services/format';
import { messages } from '../services/messages';

/** The bill's purpose and amount, the two facts a payer checks first. */
export function PaymentInfo({ bill }: { bill: Bill }) {
  return (
    <dl className="payment-info">
      <div className="payment-info-row">
        <dt>{messages.paymentInfo.purpose}</dt>
        <dd>{bill.info.PaymentPurpose}</dd>
      </div>
      <div className="payment-info-row payment-info-sum">
        <dt>{messages.paymentInfo.sum}</dt>
        <dd>{formatMoney(bill.info.Summ)}</dd>
      </div>
    </dl>
  );
}
