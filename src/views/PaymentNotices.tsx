import { useSelector } from './useSelector';
import { useState } from 'react';
import type { CheckoutActor } from '../machines/checkout';
import { formatMoney } from '../services/format';
import { stepMessages } from '../services/stepMessages';

const t = stepMessages.choosePaymentType;
const d = stepMessages.decline;

/**
 * 'Попробовать снова' after a declined payment: the way-to-pay step says what failed (the way, the amount) and why, in
 * the payer's words, when the bank said why.
 */
export function RetryNotice({ actor }: { actor: CheckoutActor }) {
  const retry = useSelector(actor, (state) => state.context.bill.retry ?? null);
  const typeName = useSelector(actor, (state) => state.context.bill.cardTypes.find((type) => type.OID === retry?.cardTypeOID)?.Name ?? null);
  if (!retry) return null;
  return (
    <div className="notice-box notice-declined" role="status">
      <p className="notice-title">{t.retryTitle}</p>
      <p>{t.retryWhat(typeName, formatMoney(retry.amount))}</p>
      <p>{retry.reason ? `${d.reasons[retry.reason]}. ${d.advice[retry.reason]}` : `${d.noReason}. ${d.noReasonAdvice}`}</p>
    </div>
  );
}

/**
 * An attempt still open at the acquirer (Back from the bank's card form, a QR not paid yet): the step says so and offers
 * to go back to it, which pays the same again and finds the same attempt (no second order), or to pay another way.
 */
export function OpenAttemptNotice({ actor, busy, onResume }: { actor: CheckoutActor; busy: boolean; onResume: (cardTypeOID: string) => void }) {
  const open = useSelector(actor, (state) => state.context.openAttempt);
  const typeName = useSelector(actor, (state) => state.context.bill.cardTypes.find((type) => type.OID === open?.cardTypeOID)?.Name ?? null);
  // Choosing another way puts the notice away: the choice is the payer's now, not a flow's.
  const [dismissed, setDismissed] = useState(false);
  if (!open || !typeName || dismissed) return null;
  const another = () => {
    setDismissed(true);
    // Focus on the first other way, where the choice is made.
    const radios = Array.from(document.getElementsByName('paymentType')) as HTMLInputElement[];
    radios.find((radio) => radio.value !== open.cardTypeOID)?.focus();
  };
  return (
    <div className="notice-box notice-open" role="status">
      <p className="notice-title">{t.openTitle}</p>
      <p>{t.openWhat(typeName)}</p>
      <div className="notice-actions">
        <button type="button" className="button secondary" disabled={busy} onClick={() => onResume(open.cardTypeOID)}>
          {t.openResume}
        </button>
        <button type="button" className="link" disabled={busy} onClick={another}>
          {t.openAnother}
        </button>
      </div>
    </div>
  );
}
