import { useEffect, useRef } from 'react';
import { formatMoney } from '../services/format';
import type { Merchant } from '../services/pageConfig';
import { receiptMessages as t } from '../services/receiptMessages';
import type { Receipt as ReceiptData } from '../services/types';
import { SuccessIcon } from './icons';
import { Receipt, webLink } from './Receipt';

/**
 * A paid bill's link: nothing is left to pay, so the page says the bill is paid and shows the receipt of
 * the payment that paid it, instead of the data error an unknown bill gets. A bill paid outside this checkout has no
 * receipt here: then the note says no more is due. A bill whose payment the merchant gave back whole says that instead
 * of 'Счет оплачен'.
 */
export interface PaidBillProps {
  receipt: ReceiptData | null;
  merchant: Merchant;
}

export function PaidBill({ receipt, merchant }: PaidBillProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The page's one news: a screen reader starts here.
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="paid-title">
      <div className="status-block status-success">
        <div className="status-icon">
          <SuccessIcon />
        </div>
        <h1 id="paid-title" className="status-text" tabIndex={-1} ref={heading}>
          {receipt?.refund?.whole ? t.refundedWhole(formatMoney(receipt.refund.amount)) : t.paidTitle}
        </h1>
      </div>
      {receipt ? <Receipt receipt={receipt} merchant={merchant} /> : <p className="result-note">{t.billPaidElsewhereNote}</p>}
      {webLink(receipt?.returnUrl) && (
        <div className="result-actions">
          <a className="button primary" href={webLink(receipt?.returnUrl)!}>
            {t.backToShop}
          </a>
        </div>
      )}
    </section>
  );
}
