import { useSelector } from './useSelector';
import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { derive, type CheckoutActor, type CheckoutProblem } from '../machines/checkout';
import { formatAmount, formatMoney } from '../services/format';
import { messages } from '../services/messages';
import { stepMessages } from '../services/stepMessages';
import { capOf, kopecksOf, partsOf, roublesOf } from '../services/pricing';
import { capText, leastText, paidText, partProblemText, remainingText } from '../services/partsWords';
import { leastPartOf, remainingOf, wayCanPay } from '../services/rules/parts';
import type { Bill, PaymentType } from '../services/types';
import { Agreements } from './Agreements';
import { usePage } from './appContext';
import { closedTitle, SupportContacts } from './ClosedBillNote';
import { ReceiptEmailField } from './EmailForm';
import { focusHeading } from './focusHeading';
import { TextField } from './TextField';
import { PaymentTypeIcon, SuccessIcon } from './icons';
import { OfferModal, type OfferActor } from './OfferModal';
import { OpenAttemptNotice, RetryNotice } from './PaymentNotices';
import { revealAbovePayBar } from './revealAbovePayBar';
import { StepSection } from './StepSection';
import { SubmitButton } from './SubmitButton';
import { useEmailForm } from './useEmailForm';

const t = stepMessages.choosePaymentType;

/**
 * Choose payment type: what failed before or is still open, the options, the payment summary, the receipt e-mail
 * (prefilled, still editable), the agreements and 'Оплатить' with the amount ('Оплатить баллами' when points cover
 * the bill), in view at the bottom of a phone's screen.
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
  const total = derive.amountToPay(context);
  const emailUsed = derive.emailUsed(context);
  const formRef = useRef<HTMLFormElement>(null);
  const problemRef = useRef<HTMLParagraphElement>(null);
  useFocusAfterPaying(actor, problemRef);

  const form = useEmailForm(({ email }) => actor.send({ type: 'payment.pay', email: email.trim() }), {
    // What was typed here before a reload, else the address the receipt goes to.
    initial: context.typed.email ?? emailUsed,
    rejected: context.emailError,
    onType: (email) => actor.send({ type: 'payer.typed', typed: { email } }),
  });
  // The address the receipt goes to already passed the checks: Pay goes at once. A changed one is validated here, and
  // the checkout has the server check it before paying; an empty one shows what is missing.
  const pay = (event: FormEvent) => {
    event.preventDefault();
    const email = form.values.email.trim();
    if (email !== '' && !derive.isEmailChanged(context, email)) actor.send({ type: 'payment.pay' });
    else form.handleSubmit();
  };
  // Back to an attempt left open: the same way to pay (and part), paid again, finds the same attempt at the acquirer.
  const resume = (cardTypeOID: string) => {
    actor.send({ type: 'payment.select', oid: cardTypeOID, resume: true });
    formRef.current?.requestSubmit();
  };

  // An attempt that may still be paid comes first: the other ways are offered once the payer has chosen to abandon it.
  const [openAbandoned, setOpenAbandoned] = useState(false);
  const openFirst = !covered && context.openAttempt !== null && !openAbandoned;
  const openCardType = context.openAttempt?.cardTypeOID;
  useEffect(() => {
    if (!openAbandoned) return;
    // Focus on the first other way, where the choice is made.
    const radios = Array.from(document.getElementsByName('paymentType')) as HTMLInputElement[];
    radios.find((radio) => radio.value !== openCardType)?.focus();
  }, [openAbandoned, openCardType]);

  if (openFirst) {
    return (
      <form ref={formRef} className="form" noValidate onSubmit={pay}>
        <RetryNotice actor={actor} />
        <OpenAttemptNotice actor={actor} busy={busy} onResume={resume} onSettled={() => setOpenAbandoned(true)} />
      </form>
    );
  }

  return (
    <form ref={formRef} className="form" noValidate onSubmit={pay}>
      <RetryNotice actor={actor} />
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
                disabled={busy || !canPayBy(context.bill, type)}
                onChange={() => actor.send({ type: 'payment.select', oid: type.OID })}
              />
              <span className="payment-type-icon">
                <PaymentTypeIcon code={type.Code} />
              </span>
              <span className="payment-type-text">
                <span className="payment-type-name">{type.Name}</span>
                <span className="payment-type-fee">{type.CommissionSumm > 0 ? t.commission(type.CommissionSumm) : t.noCommission}</span>
                {/* A way whose cap is below what it would pay says so (on a bill without parts it cannot pay at all). */}
                {capNote(context.bill, type) && <span className="payment-type-fee">{capNote(context.bill, type)}</span>}
              </span>
            </label>
          ))}
        </fieldset>
      )}

      <Summary actor={actor} disabled={busy} />

      <ReceiptEmailField form={form} rejected={context.emailError} disabled={busy} />

      {selected && !covered && <Agreements actor={actor} type={selected} offer={offer} disabled={busy} />}

      {context.problem === 'bill expired' ? (
        // The deadline passed: no other way to pay can help, so the payer learns that and whom to ask.
        <ExpiredBillProblem problemRef={problemRef} />
      ) : (
        context.problem && (
          // Catalogue texts only (this one carries a link, so it is HTML); never text from the server.
          <p ref={problemRef} className="form-error" role="alert" tabIndex={-1} dangerouslySetInnerHTML={{ __html: problemText[context.problem] }} />
        )
      )}
      {/* On a phone the button stays in view at the bottom of the screen, with what it will charge. */}
      <div className="pay-bar">
        <SubmitButton busy={busy || form.submitting}>{covered ? t.payWithPoints : t.payAmount(formatMoney(roublesOf(total)))}</SubmitButton>
      </div>
    </form>
  );
}

/** The sums: the bill, the fee, the points as a discount in roubles (with a way to spend none), the total. */
function Summary({ actor, disabled }: { actor: CheckoutActor; disabled: boolean }) {
  const context = useSelector(actor, (state) => state.context);
  const covered = derive.isCoveredByPoints(context);
  const parts = partsOf(context.bill);
  return (
    <>
      {parts && (
        <div className="parts-progress">
          <p>{paidText(parts)}</p>
          <p>{remainingText(parts)}</p>
          {leastPartOf(parts) < remainingOf(parts) && <p className="hint">{leastText(leastPartOf(parts))}</p>}
          <PartField actor={actor} disabled={disabled} />
        </div>
      )}
      <dl className="summary">
        {parts ? (
          <div className="summary-row">
            <dt>{t.partAmount}</dt>
            <dd>{formatMoney(roublesOf(derive.part(context)))}</dd>
          </div>
        ) : (
          <div className="summary-row">
            <dt>{t.prepayment}</dt>
            <dd>{formatMoney(context.bill.info.Summ)}</dd>
          </div>
        )}
        {/* Points paying it all: no fee is charged, so none is shown (not 'Сервисный сбор от 0,00'). */}
        {!covered && (
          <div className="summary-row">
            <dt>{derive.selectedType(context) ? t.fee : t.feeFrom}</dt>
            <dd>{formatMoney(roublesOf(derive.commission(context)))}</dd>
          </div>
        )}
        {context.usedPoints > 0 && (
          <div className="summary-row summary-points">
            <dt>{messages.points.used}</dt>
            {/* One point is one rouble: the points are a discount, in the money they take off. */}
            <dd>−{formatMoney(context.usedPoints)}</dd>
            <dd className="summary-action">
              <button type="button" className="link" disabled={disabled} onClick={() => actor.send({ type: 'points.clear' })}>
                {t.noPoints}
              </button>
            </dd>
          </div>
        )}
        <div className="summary-row summary-total">
          <dt>{t.total}</dt>
          <dd>{formatMoney(roublesOf(derive.amountToPay(context)))}</dd>
        </div>
      </dl>
    </>
  );
}

/**
 * 'Сумма платежа': what the payer typed, or the part paid unless they type (what remains, or the chosen way's cap),
 * with what is wrong with it under it as they type.
 */
function PartField({ actor, disabled }: { actor: CheckoutActor; disabled: boolean }) {
  const context = useSelector(actor, (state) => state.context);
  const id = useId();
  const problem = derive.partProblem(context);
  const code = derive.selectedType(context)?.Code ?? 'ALL';
  return (
    <TextField
      id={`${id}-part`}
      label={t.partAmount}
      error={problem && partProblemText(problem, code)}
      name="part"
      inputMode="decimal"
      autoComplete="off"
      value={context.partTyped ?? formatAmount(roublesOf(derive.part(context)))}
      onChange={(event) => actor.send({ type: 'part.type', text: event.target.value })}
      disabled={disabled}
    />
  );
}

/**
 * The cap of a way, when it is below what the way would pay: of a bill with parts, what remains (it pays a part up to
 * its cap); of a bill without, the whole (it cannot pay it). Null when the way has no cap that matters here.
 */
function capNote(bill: Bill, type: PaymentType): string | null {
  const cap = capOf(type);
  if (cap === null) return null;
  const parts = partsOf(bill);
  const wanted = parts ? remainingOf(parts) : kopecksOf(bill.info.Summ);
  return cap < wanted ? capText(type.Code, cap) : null;
}

/** Whether a way can pay this bill at all: on a bill without parts its cap must take the whole. */
const canPayBy = (bill: Bill, type: PaymentType): boolean => {
  const cap = capOf(type);
  const parts = partsOf(bill);
  return cap === null || (parts ? wayCanPay(parts, cap) : cap >= kopecksOf(bill.info.Summ));
};

/** Pay refused because the bill's deadline passed: said as it is, with whom to ask. */
function ExpiredBillProblem({ problemRef }: { problemRef: RefObject<HTMLParagraphElement | null> }) {
  const { config } = usePage();
  return (
    <p ref={problemRef} className="form-error" role="alert" tabIndex={-1}>
      <span className="form-error-line">{closedTitle('expired')}</span>
      <SupportContacts merchant={config.merchant} />
    </p>
  );
}

const problemText: Record<Exclude<CheckoutProblem, 'bill expired'>, string> = {
  'no payment url': t.noPaymentUrl,
  'close with points failed': t.closeWithPointsFailed,
};

/**
 * Paying came back to this step (the bank-app pay widget closed, or Pay failed): the button that had focus is busy no
 * more and the widget is gone. Pay failed, focus goes to what went wrong, brought into view above a phone's Pay bar
 * (the answer to the tap); else to the step's heading, as after a step change.
 */
function useFocusAfterPaying(actor: CheckoutActor, problem: RefObject<HTMLElement | null>) {
  const paying = useSelector(actor, (state) => state.matches({ choosePaymentType: 'paying' }));
  const was = useRef(paying);
  useEffect(() => {
    if (was.current && !paying) {
      if (problem.current) {
        problem.current.focus({ preventScroll: true });
        revealAbovePayBar(problem.current);
      } else focusHeading(document.getElementById('step-title'));
    }
    was.current = paying;
  }, [paying, problem]);
}
