import { useSelector } from '@xstate/react';
import { derive, type CheckoutActor, type CheckoutProblem } from '../machines/checkout';
import { formatAmount, formatMoney, formatPoints } from '../services/format';
import { messages } from '../services/messages';
import { roublesOf } from '../services/pricing';
import type { OfferKind, PaymentType } from '../services/types';
import { PaymentTypeIcon } from './icons';
import { OfferModal, type OfferActor } from './OfferModal';
import { StepSection } from './StepSection';

const t = messages.choosePaymentType;

/** Choose payment type (SPEC §2): the options, the payment summary, the agreements and 'Оплатить'. */
export function ChoosePaymentType({ actor }: { actor: CheckoutActor }) {
  const context = useSelector(actor, (state) => state.context);
  const busy = useSelector(actor, (state) => state.hasTag('busy'));
  const offer = useSelector(actor, (state) => state.children.offer);
  const covered = derive.isCoveredByPoints(context);
  const selected = derive.selectedType(context);
  const fee = derive.commission(context);
  const total = derive.finalPrice(context);

  return (
    <StepSection title={covered ? t.coveredByPoints : t.title}>
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
        <div className="summary-row">
          <dt>{selected ? t.fee : t.feeFrom}</dt>
          <dd>{formatMoney(roublesOf(fee))}</dd>
        </div>
        {context.usedPoints > 0 && (
          <div className="summary-row">
            <dt>{t.pointsUsed}</dt>
            <dd>{formatPoints(context.usedPoints)}</dd>
          </div>
        )}
        <div className="summary-row summary-total">
          <dt>{t.total}</dt>
          <dd>{formatAmount(roublesOf(Math.max(0, total)))} руб.</dd>
        </div>
      </dl>

      {selected && !covered && <Agreements actor={actor} type={selected} offer={offer} disabled={busy} />}

      {context.problem && (
        // Catalogue texts only (SPEC §8 shows this one as HTML); never text from the server.
        <p className="form-error" role="alert" dangerouslySetInnerHTML={{ __html: problemText[context.problem] }} />
      )}
      <button type="button" className="button primary" disabled={busy} aria-busy={busy} onClick={() => actor.send({ type: 'payment.pay' })}>
        {busy && <span className="spinner" aria-hidden="true" />} {t.pay}
      </button>
      {offer && <OfferModal offer={offer} />}
    </StepSection>
  );
}

const problemText: Record<CheckoutProblem, string> = {
  'no payment url': t.noPaymentUrl,
  'close with points failed': t.closeWithPointsFailed,
};

const agreementText: Record<OfferKind, { link: string; error: string }> = {
  aggregator: { link: messages.agreement.aggregatorLink, error: t.offerRequired },
  executer: { link: messages.agreement.executerLink, error: t.executerRequired },
};

/** The agreement checkboxes the chosen type asks for (SPEC §5); each line's link opens the offer text. */
function Agreements({ actor, type, offer, disabled }: { actor: CheckoutActor; type: PaymentType; offer: OfferActor | undefined; disabled: boolean }) {
  const agreements = useSelector(actor, (state) => state.context.agreements);
  const errors = useSelector(actor, (state) => state.context.agreementErrors);
  const kinds = (['aggregator', 'executer'] as const).filter((kind) =>
    kind === 'aggregator' ? type.IsShowAggregatorOffer : type.IsShowExecuterOffer,
  );
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
                  {messages.agreement.accept}
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
