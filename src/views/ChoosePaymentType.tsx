import { useSelector } from '@xstate/react';
import { derive, type CheckoutActor } from '../machines/checkout';
import { formatAmount, formatMoney, formatPoints } from '../services/format';
import { messages } from '../services/messages';
import { PaymentTypeIcon } from './icons';

const t = messages.choosePaymentType;

/** Choose payment type (SPEC §2): the options, the payment summary, the agreements and 'Оплатить'. */
export function ChoosePaymentType({ actor }: { actor: CheckoutActor }) {
  const context = useSelector(actor, (state) => state.context);
  const busy = useSelector(actor, (state) => state.hasTag('busy'));
  const covered = derive.isCoveredByPoints(context);
  const selected = derive.selectedType(context);
  const fee = derive.commission(context);
  const total = derive.finalPrice(context);

  return (
    <section aria-labelledby="step-title">
      <h1 id="step-title" className="step-title">
        {covered ? t.coveredByPoints : t.title}
      </h1>
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
          <dd>{formatMoney(fee)}</dd>
        </div>
        {context.usedPoints > 0 && (
          <div className="summary-row">
            <dt>{t.pointsUsed}</dt>
            <dd>{formatPoints(context.usedPoints)}</dd>
          </div>
        )}
        <div className="summary-row summary-total">
          <dt>{t.total}</dt>
          <dd>{formatAmount(Math.max(0, total))} руб.</dd>
        </div>
      </dl>

      {context.error && (
        // Catalogue texts only (SPEC §8 shows this one as HTML); never text from the server.
        <p className="form-error" role="alert" dangerouslySetInnerHTML={{ __html: context.error }} />
      )}
      <button type="button" className="button primary" disabled={busy} onClick={() => actor.send({ type: 'payment.pay' })}>
        {t.pay}
      </button>
    </section>
  );
}
