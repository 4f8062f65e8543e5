import { useSelector } from './useSelector';
import { useEffect, useRef } from 'react';
import { derive, type Agreements as Ticks, type CheckoutActor } from '../machines/checkout';
import { stepMessages } from '../services/stepMessages';
import type { OfferKind, PaymentType } from '../services/types';
import type { OfferActor } from './OfferModal';
import { revealAbovePayBar } from './revealAbovePayBar';

const t = stepMessages.choosePaymentType;

const agreementText: Record<OfferKind, { link: string; error: string }> = {
  aggregator: { link: stepMessages.agreement.aggregatorLink, error: t.offerRequired },
  executor: { link: stepMessages.agreement.executorLink, error: t.executorRequired },
};

/**
 * The agreement checkboxes the chosen type asks for; each line's link opens the offer text. The box, its words and the
 * link are each a target of 44 px at least: a thumb finds them on a phone.
 */
export function Agreements({ actor, type, offer, disabled }: { actor: CheckoutActor; type: PaymentType; offer: OfferActor | undefined; disabled: boolean }) {
  const agreements = useSelector(actor, (state) => derive.agreements(state.context));
  const errors = useSelector(actor, (state) => state.context.agreementErrors);
  const kinds = (['aggregator', 'executor'] as const).filter((kind) => (kind === 'aggregator' ? type.IsShowAggregatorOffer : type.IsShowExecuterOffer));
  useFocusFirstError(errors);
  if (kinds.length === 0) return null;

  return (
    <div className="agreements">
      {kinds.map((kind) => {
        const id = `agreement-${kind}`;
        return (
          <div key={kind} className="agreement-item">
            <div className="agreement-line">
              {/* The box's own target: the padding around the 24 px box is part of it. */}
              <label className="agreement-box">
                <input
                  id={id}
                  type="checkbox"
                  checked={agreements[kind]}
                  disabled={disabled}
                  aria-labelledby={`${id}-label ${id}-link`}
                  aria-invalid={errors[kind] || undefined}
                  aria-describedby={errors[kind] ? `${id}-error` : undefined}
                  onChange={(event) => actor.send({ type: 'agreement.set', kind, checked: event.target.checked })}
                />
              </label>
              {/* One sentence that wraps as text: the label and the link that opens the offer. */}
              <span className="agreement-text">
                <label id={`${id}-label`} htmlFor={id}>
                  {stepMessages.agreement.accept}
                </label>{' '}
                <button
                  id={`${id}-link`}
                  type="button"
                  className="link agreement-link"
                  aria-haspopup="dialog"
                  onClick={() => offer?.send({ type: 'offer.open', kind, cardTypeOID: type.OID })}
                >
                  {agreementText[kind].link}
                </button>
              </span>
            </div>
            {errors[kind] && (
              <p id={`${id}-error`} className="field-error agreement-error" role="alert">
                {agreementText[kind].error}
              </p>
            )}
          </div>
        );
      })}
    </div>
  );
}

/**
 * After a Pay that the agreements stopped, focus goes to the first one missing, so it is ticked next, and its error is
 * brought into view above a phone's Pay bar.
 */
function useFocusFirstError(errors: Ticks) {
  const shown = useRef(errors);
  useEffect(() => {
    // Each Pay sets the marks anew (a new object), so a second Pay with the same marks moves focus again.
    if (shown.current === errors) return;
    shown.current = errors;
    const first = errors.aggregator ? 'aggregator' : errors.executor ? 'executor' : null;
    if (!first) return;
    document.getElementById(`agreement-${first}`)?.focus({ preventScroll: true });
    // The box and its error together: the line ticked and the words saying why.
    revealAbovePayBar(document.getElementById(`agreement-${first}-error`)?.closest<HTMLElement>('.agreement-item') ?? null);
  }, [errors]);
}
