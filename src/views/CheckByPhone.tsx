import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { CheckoutActor } from '../machines/checkout';
import type { freeCallMachine } from '../machines/freeCall';
import { maskPhone } from '../services/rules/phone';
import { stepMessages } from '../services/stepMessages';
import { usePage } from './appContext';
import { StepSection } from './StepSection';

const t = stepMessages.freeCall;

/** The free-call screen: call the fixed number from your own phone; 'Позвонить' is a tel: link. */
export function CheckByPhone({ actor }: { actor: CheckoutActor }) {
  const { config } = usePage();
  const flow = useSelector(actor, (state) => state.children.freeCall);
  const number = config.freeCallNumber;
  const dialable = number.replace(/[^\d+]/g, '');

  return (
    <StepSection title={t.title}>
      <p>{t.instruction}</p>
      {flow && <CallerPhone flow={flow} />}
      <p className="free-call-number">
        <span className="label">{t.number}</span> <strong>{number}</strong>
      </p>
      <a className="button primary" href={`tel:${dialable}`}>
        {t.call}
      </a>
      {flow && <WaitingNote flow={flow} />}
    </StepSection>
  );
}

/** The phone the line waits for a call from: the one the code went to (masked, as the code screen shows it). */
function CallerPhone({ flow }: { flow: ActorRefFrom<typeof freeCallMachine> }) {
  const phone = useSelector(flow, (state) => state.context.phone);
  return phone ? <p className="free-call-from">{t.callFrom(maskPhone(phone))}</p> : null;
}

/** Announces that the line waits for the call (polling), politely. */
function WaitingNote({ flow }: { flow: ActorRefFrom<typeof freeCallMachine> }) {
  const waiting = useSelector(flow, (state) => state.hasTag('waiting for call'));
  return (
    <p role="status" aria-live="polite" className="field-note">
      {waiting ? t.waiting : ''}
    </p>
  );
}
