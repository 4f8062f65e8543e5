import { useSelector } from '@xstate/react';
import { useEffect, useRef, type FormEvent } from 'react';
import { derive, type Agreements as Ticks, type CheckoutActor, type CheckoutProblem } from '../machines/checkout';
import { formatAmount, formatMoney, formatPoints } from '../services/format';
import { messages } from '../services/messages';
import { stepMessages } from '../services/stepMessages';
import { roublesOf } from '../services/pricing';
import type { OfferKind, PaymentType } from '../services/types';
import { PaymentTypeIcon, SuccessIcon } from './icons';
import { OfferModal, type OfferActor } from './OfferModal';
import { ReceiptEmailField } from './EmailForm';
import { StepSection } from './StepSection';
import { SubmitButton } from './SubmitButton';
import { useEmailForm } from './useEmailForm';

const t = stepMessages.choosePaymentType;

/**
 * Choose payment type: the options, the payment summary, the receipt e-mail (prefilled, still editable),
 * the agreements and 'Оплатить' ('Оплатить баллами' when points cover the bill).
 */
export function ChoosePaymentType({ actor }: { actor: CheckoutActor }) {
  const alreadyPaid = useSelector(actor, (state) => state.hasTag('already paid'));
  const offer = useSelector(actor, (state) => state.children.offer);
  const covered = useSelector(actor, (state) => derive.isCoveredByPoints(state.context));

  return (
    <StepSection title={alreadyPaid ? t.alreadyPaid : covered ? t.coveredByPoints : t.title}>
      {alreadyPaid ? (
        <div className="status-block status-success" role="status">
          <div className="status-icon">
            <SuccessIcon />
          </div>
          <p>{t.alreadyPaidNote}</p>
        </div>
      ) : (
        <PayForm actor={actor} offer={offer} />
      )}
      {offer && <OfferModal offer={offer} />}
    </StepSection>
  );
}

function PayForm({ actor, offer }: { actor: CheckoutActor; offer: OfferActor | undefined }) {
  const context = useSelector(actor, (state) => state.context);
  const busy = useSelector(actor, (state) => state.hasTag('busy'));
  const covered = derive.isCoveredByPoints(context);
  const selected = derive.selectedType(context);
  const fee = derive.commission(context);
  const total = derive.amountToPay(context);
  const emailUsed = derive.emailUsed(context);

  const form = useEmailForm(({ email }) => actor.send({ type: 'payment.pay', email: email.trim() }), { initial: emailUsed, rejected: context.emailError });
  // The address the receipt goes to already passed the checks: Pay goes at once. A changed one is validated here, and
  // the checkout has the server check it before paying; an empty one shows what is missing.
  const pay = (event: FormEvent) => {
    event.preventDefault();
    const email = form.values.email.trim();
    if (email !== '' && !derive.isEmailChanged(context, email)) actor.send({ type: 'payment.pay' });
    else form.handleSubmit();
  };

  return (
    <form className="form" noValidate onSubmit={pay}>
      {!covered && (
        <fieldset className="payment-types">
          <legend className="visually-hidden">{t.title}</legend>
          {context.bill.cardTypes.map((type) => (
            <label key={type.OID} className={`payment-type${type.OID === context.selectedTypeOid ? ' is-selected' : ''}`}>
              <input
                type="radio"
                name="paymentType"
                value={type.OID}
                checked={type.OID === context.selectedTypeOid}
                disabled={busy}
                onChange={() => actor.send({ type: 'payment.select', oid: type.OID })}
              />
              <span className="payment-type-icon">
                <PaymentTypeIcon code={type.Code} />
              </span>
              <span className="payment-type-text">
                <span className="payment-type-name">{type.Name}</span>
                {type.CommissionSumm > 0 && <span className="payment-type-fee">{t.commission(type.CommissionSumm)}</span>}
              </span>
            </label>
          ))}
        </fieldset>
      )}

      <dl className="summary">
        <div className="summary-row">
          <dt>{t.prepayment}</dt>
          <dd>{formatMoney(context.bill.info.Summ)}</dd>
        </div>
        {/* Points paying it all: no fee is charged, so none is shown (not 'Сервисный сбор от 0,00'). */}
        {!covered && (
          <div className="summary-row">
            <dt>{selected ? t.fee : t.feeFrom}</dt>
            <dd>{formatMoney(roublesOf(fee))}</dd>
          </div>
        )}
        {context.usedPoints > 0 && (
          <div className="summary-row">
            <dt>{messages.points.used}</dt>
            <dd>{formatPoints(context.usedPoints)}</dd>
          </div>
        )}
        <div className="summary-row summary-total">
          <dt>{t.total}</dt>
          <dd>{formatAmount(roublesOf(total))} руб.</dd>
        </div>
      </dl>

      <ReceiptEmailField form={form} rejected={context.emailError} disabled={busy} />

      {selected && !covered && <Agreements actor={actor} type={selected} offer={offer} disabled={busy} />}

      {context.problem && (
        // Catalogue texts only (this one carries a link, so it is HTML); never text from the server.
        <p className="form-error" role="alert" dangerouslySetInnerHTML={{ __html: problemText[context.problem] }} />
      )}
      <SubmitButton busy={busy || form.submitting}>{covered ? t.payWithPoints : t.pay}</SubmitButton>
    </form>
  );
}

const problemText: Record<CheckoutProblem, string> = {
  'no payment url': t.noPaymentUrl,
  'close with points failed': t.closeWithPointsFailed,
};

const agreementText: Record<OfferKind, { link: string; error: string }> = {
  aggregator: { link: stepMessages.agreement.aggregatorLink, error: t.offerRequired },
  executer: { link: stepMessages.agreement.executerLink, error: t.executerRequired },
};

/** The agreement checkboxes the chosen type asks for; each line's link opens the offer text. */
function Agreements({ actor, type, offer, disabled }: { actor: CheckoutActor; type: PaymentType; offer: OfferActor | undefined; disabled: boolean }) {
  const agreements = useSelector(actor, (state) => derive.agreements(state.context));
  const errors = useSelector(actor, (state) => state.context.agreementErrors);
  const kinds = (['aggregator', 'executer'] as const).filter((kind) =>
    kind === 'aggregator' ? type.IsShowAggregatorOffer : type.IsShowExecuterOffer,
  );
  useFocusFirstError(errors);
  if (kinds.length === 0) return null;

  return (
    <div className="agreements">
      {kinds.map((kind) => {
        const id = `agreement-${kind}`;
        return (
          <div key={kind} className="agreement-item">
            <div className="agreement-line">
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

/** After a Pay that the agreements stopped, focus goes to the first one missing, so it is ticked next. */
function useFocusFirstError(errors: Ticks) {
  const shown = useRef(errors);
  useEffect(() => {
    // Each Pay sets the marks anew (a new object), so a second Pay with the same marks moves focus again.
    if (shown.current === errors) return;
    shown.current = errors;
    const first = errors.aggregator ? 'aggregator' : errors.executer ? 'executer' : null;
    if (first) document.getElementById(`agreement-${first}`)?.focus();
  }, [errors]);
}
