import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { PaymentActionActor } from '../machines/paymentAction';
import { formatMoney } from '../services/format';
import { deskMessages } from '../services/messages';
import { Field, fieldProblem, Problem } from './common';

const m = deskMessages.action;

/**
 * A payment action in a modal dialog (the browser keeps focus inside, Esc cancels): what to do, then the confirmation
 * in words, then the server's answer. Today a refund; another kind brings its own fields and words here.
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
        <h2 id="action-title">{m.refundTitle}</h2>
        {step === 'editing' ? (
          <form className="dialog-body" onSubmit={review} noValidate>
            <Problem problem={problem} />
            <Field id="action-amount" label={m.amount} hint={m.amountHint(max)} error={amountError}>
              {(props) => <input {...props} inputMode="decimal" autoComplete="off" value={amount} onChange={(event) => setAmount(event.target.value)} autoFocus />}
            </Field>
            <Field id="action-reason" label={m.reason} error={fieldProblem(problem, 'reason')}>
              {(props) => <input {...props} value={reason} maxLength={500} onChange={(event) => setReason(event.target.value)} />}
            </Field>
            <div className="row">
              <button type="submit" className="button">
                {m.refund}
              </button>
              <button type="button" className="button secondary" onClick={() => actor.send({ type: 'action.cancel' })}>
                {m.cancel}
              </button>
            </div>
          </form>
        ) : (
          <>
            <p role="status">{m.confirmText(request.amountKopecks === null ? max : formatMoney(request.amountKopecks))}</p>
            <div className="row">
              <button type="button" className="button danger" disabled={step === 'performing'} onClick={() => actor.send({ type: 'action.confirm' })} autoFocus>
                {step === 'performing' ? m.working : m.confirm}
              </button>
              <button type="button" className="button secondary" disabled={step === 'performing'} onClick={() => actor.send({ type: 'action.back' })}>
                {m.back}
              </button>
            </div>
          </>
        )}
      </div>
    </dialog>
  );
}
