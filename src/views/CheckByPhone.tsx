import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { CheckoutActor } from '../machines/checkout';
import type { freeCallMachine } from '../machines/freeCall';
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

/** Announces that the line waits for the call (polling), politely. */
function WaitingNote({ flow }: { flow: ActorRefFrom<typeof freeCallMachine> }) {
  const waiting = useSelector(flow, (state) => state.hasTag('waiting for call'));
  return (
    <p role="status" aria-live="polite" className="field-note">
      {waiting ? t.waiting : ''}
    </p>
  );
}
