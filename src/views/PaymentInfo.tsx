import type { Bill } from '../services/types';
import { formatMoney, formatPoints } from '../services/format';
import { messages } from '../services/messages';
import { roublesOf, sumAfterPoints } from '../services/pricing';

const t = messages.paymentInfo;

/**
 * The amount, the fact a payer checks first; the purpose is the step's title, so it is printed once.
 * With points chosen the amount is what is left to pay, under the bill's sum and the points.
 */
export function PaymentInfo({ bill, usedPoints = 0 }: { bill: Bill; usedPoints?: number }) {
  return (
    <dl className="payment-info">
      {usedPoints > 0 && (
        <>
          <div className="payment-info-row payment-info-line">
            <dt>{t.billSum}</dt>
            <dd>{formatMoney(bill.info.Summ)}</dd>
          </div>
          <div className="payment-info-row payment-info-line">
            <dt>{t.points}</dt>
            <dd>−{formatPoints(usedPoints)}</dd>
          </div>
        </>
      )}
      <div className="payment-info-row payment-info-sum">
        <dt>{t.sum}</dt>
        <dd>{formatMoney(roublesOf(sumAfterPoints(bill, usedPoints)))}</dd>
      </div>
    </dl>
  );
}
