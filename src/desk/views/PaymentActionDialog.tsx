import { useSelector } from '../../views/useSelector';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { asksAmount, type PaymentActionActor } from '../machines/paymentAction';
import type { DeskAction } from '../services/types';
import { formatMoney } from '../services/format';
import { deskMessages } from '../services/messages';
import { Field, fieldProblem, Problem } from './common';

const m = deskMessages.action;

/** What the confirmation says and its button, by kind: the amount asked (kopecks, null: all) against its `max`. */
function confirmation(action: DeskAction, amountKopecks: number | null): { text: string; button: string } {
  const max = formatMoney(action.max);
  const amount = amountKopecks === null ? max : formatMoney(amountKopecks);
  switch (action.kind) {
    case 'refund':
      return { text: m.confirmText(amount), button: m.confirm };
    case 'capture':
      return { text: m.confirmCaptureText(amount, max), button: m.confirmCapture };
    case 'release':
      return { text: m.confirmReleaseText(max), button: m.confirmRelease };
    case 'handover':
      return { text: m.confirmHandoverText(max), button: m.confirmHandover };
  }
}

/**
 * An action in a modal dialog (the browser keeps focus inside, Esc cancels): what to do where the kind asks it (a
 * refund's amount and reason, a capture's amount), then the confirmation in words, then the server's answer. A release
 * and a handover ask nothing: the confirmation is the first step, and a refusal is told on it.
 */
export function PaymentActionDialog({ actor }: { actor: PaymentActionActor }) {
  const ref = useRef<HTMLDialogElement>(null);
  const step = useSelector(actor, (state) => (state.matches('confirming') ? 'confirming' : state.matches('performing') ? 'performing' : 'editing'));
  const action = useSelector(actor, (state) => state.context.action);
  const request = useSelector(actor, (state) => state.context.request);
  const problem = useSelector(actor, (state) => state.context.problem);
  const unreadable = useSelector(actor, (state) => state.context.unreadable);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  const review = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'action.review', amountText: amount, reason });
  };
  const max = formatMoney(action.max);
  const amountError = unreadable ? m.badAmount : fieldProblem(problem, 'amount.value');
  const isRefund = action.kind === 'refund';
  const said = confirmation(action, request.amountKopecks);
  return (
    <dialog
      ref={ref}
      className="action-dialog"
      aria-labelledby="action-title"
      onCancel={(event) => {
        event.preventDefault();
        actor.send({ type: 'action.cancel' });
      }}
    >
      <div className="dialog-body">
        <h2 id="action-title">{m.titles[action.kind]}</h2>
        {step === 'editing' ? (
          <form className="dialog-body" onSubmit={review} noValidate>
            <Problem problem={problem} />
            <Field id="action-amount" label={isRefund ? m.amount : m.captureAmount} hint={isRefund ? m.amountHint(max) : m.captureHint(max)} error={amountError}>
              {(props) => <input {...props} inputMode="decimal" autoComplete="off" value={amount} onChange={(event) => setAmount(event.target.value)} autoFocus />}
            </Field>
            {isRefund ? (
              <Field id="action-reason" label={m.reason} error={fieldProblem(problem, 'reason')}>
                {(props) => <input {...props} value={reason} maxLength={500} onChange={(event) => setReason(event.target.value)} />}
              </Field>
            ) : null}
            <div className="row">
              <button type="submit" className="button">
                {m.buttons[action.kind]}
              </button>
              <button type="button" className="button secondary" onClick={() => actor.send({ type: 'action.cancel' })}>
                {m.cancel}
              </button>
            </div>
          </form>
        ) : (
          <>
            <Problem problem={problem} />
            <p role="status">{said.text}</p>
            <div className="row">
              <button type="button" className="button danger" disabled={step === 'performing'} onClick={() => actor.send({ type: 'action.confirm' })} autoFocus>
                {step === 'performing' ? m.working : said.button}
              </button>
              <button type="button" className="button secondary" disabled={step === 'performing'} onClick={() => actor.send({ type: 'action.back' })}>
                {asksAmount(action) ? m.back : m.cancel}
              </button>
            </div>
          </>
        )}
      </div>
    </dialog>
  );
}
