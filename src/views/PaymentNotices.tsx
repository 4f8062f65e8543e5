import { useSelector } from './useSelector';
import { useState } from 'react';
import type { CheckoutActor } from '../machines/checkout';
import { formatMoney } from '../services/format';
import { stepMessages } from '../services/stepMessages';

const t = stepMessages.choosePaymentType;
const d = stepMessages.decline;

/**
 * 'Попробовать снова' after a declined payment: the way-to-pay step says what failed (the way, the amount) and why, in
 * the payer's words, when the bank said why. After a hold that was let go, whether the payer came by 'Попробовать
 * снова' or by the bill's plain link: 'Блокировка снята', the way and the amount held.
 */
export function RetryNotice({ actor }: { actor: CheckoutActor }) {
  const retry = useSelector(actor, (state) => state.context.bill.retry ?? null);
  const releasedHold = useSelector(actor, (state) => state.context.bill.releasedHold ?? null);
  // A retry of another attempt (declined) says that one; otherwise a hold let go is said.
  const released = retry ? (retry.released ? retry : null) : releasedHold;
  const shown = retry ?? releasedHold;
  const typeName = useSelector(actor, (state) => state.context.bill.cardTypes.find((type) => type.OID === shown?.cardTypeOID)?.Name ?? null);
  // A hold let go: nothing failed, nothing was taken; the bill can be paid again.
  if (released)
    return (
      <div className="notice-box notice-open" role="status">
        <p className="notice-title">{t.releasedTitle}</p>
        <p>{t.retryWhat(typeName, formatMoney(released.amount))}</p>
      </div>
    );
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
 * An attempt of the bill that may still be paid (a QR or a card form, in this tab or another, Back from the bank's
 * form): the step says so before it offers another way, and offers to go back to it, which pays the same again and
 * finds the same attempt (no second order). Another way is asked to be confirmed first: the server then ends the begun
 * one at the bank. `onSettled`: the payer chose another way, the ways to pay are offered.
 */
export function OpenAttemptNotice({ actor, busy, onResume, onSettled }: { actor: CheckoutActor; busy: boolean; onResume: (cardTypeOID: string) => void; onSettled: () => void }) {
  const open = useSelector(actor, (state) => state.context.openAttempt);
  const typeName = useSelector(actor, (state) => state.context.bill.cardTypes.find((type) => type.OID === open?.cardTypeOID)?.Name ?? null);
  const [confirming, setConfirming] = useState(false);
  if (!open || !typeName) return null;
  const resume = (
    <button type="button" className="button secondary" disabled={busy} onClick={() => onResume(open.cardTypeOID)}>
      {t.openResume}
    </button>
  );
  if (confirming) {
    return (
      <div className="notice-box notice-open" role="status">
        <p className="notice-title">{t.openConfirmTitle}</p>
        <p>{t.openConfirmWhat(typeName)}</p>
        <div className="notice-actions">
          {resume}
          <button type="button" className="link" disabled={busy} onClick={onSettled}>
            {t.openConfirm}
          </button>
        </div>
      </div>
    );
  }
  return (
    <div className="notice-box notice-open" role="status">
      <p className="notice-title">{t.openTitle}</p>
      <p>{t.openWhat(typeName)}</p>
      <div className="notice-actions">
        {resume}
        <button type="button" className="link" disabled={busy} onClick={() => setConfirming(true)}>
          {t.openAnother}
        </button>
      </div>
    </div>
  );
}
