import { useSelector } from './useSelector';
import type { ActorRefFrom } from 'xstate';
import type { CheckoutActor } from '../machines/checkout';
import type { freeCallMachine } from '../machines/freeCall';
import { maskPhone } from '../services/rules/phone';
import { stepMessages } from '../services/stepMessages';
import { StepSection } from './StepSection';

const t = stepMessages.freeCall;

type FreeCallActor = ActorRefFrom<typeof freeCallMachine>;

/** The free-call screen: call the number the provider gave for this page from your own phone; 'Позвонить' is a tel: link. */
export function CheckByPhone({ actor }: { actor: CheckoutActor }) {
  const flow = useSelector(actor, (state) => state.children.freeCall);
  return (
    <StepSection title={t.title}>
      <p>{t.instruction}</p>
      {flow && <CallerPhone flow={flow} />}
      {flow && <FreeCallNumber flow={flow} />}
      {flow && <FreeCallNote flow={flow} />}
    </StepSection>
  );
}

/** The phone the line waits for a call from: the one the code went to (masked, as the code screen shows it). */
function CallerPhone({ flow }: { flow: FreeCallActor }) {
  const phone = useSelector(flow, (state) => state.context.phone);
  return phone ? <p className="free-call-from">{t.callFrom(maskPhone(phone))}</p> : null;
}

/** The number to call and its tel: link, once the provider gave one. */
function FreeCallNumber({ flow }: { flow: FreeCallActor }) {
  const number = useSelector(flow, (state) => (state.hasTag('waiting for call') || state.hasTag('reloading') ? state.context.number : null));
  if (!number) return null;
  return (
    <>
      <p className="free-call-number">
        <span className="label">{t.number}</span> <strong>{number.callPhonePretty}</strong>
      </p>
      <a className="button primary" href={`tel:+${number.callPhone.replace(/\D/g, '')}`}>
        {t.call}
      </a>
    </>
  );
}

/** What the screen waits for, politely; what went wrong, at once (with the way to start again when there is one). */
function FreeCallNote({ flow }: { flow: FreeCallActor }) {
  const note = useSelector(flow, (state) =>
    state.hasTag('getting number') ? t.gettingNumber : state.hasTag('waiting for call') ? t.waiting : '',
  );
  const problem = useSelector(flow, (state) => (state.hasTag('not locked') ? t.notLocked : state.hasTag('start again') ? t.startAgain : null));
  const canRestart = useSelector(flow, (state) => state.hasTag('start again'));
  return (
    <>
      <p role="status" aria-live="polite" className="field-note">
        {note}
      </p>
      {problem && (
        <p role="alert" className="form-error">
          {problem}
        </p>
      )}
      {canRestart && (
        <button type="button" className="button primary" onClick={() => flow.send({ type: 'freeCall.restart' })}>
          {t.restart}
        </button>
      )}
    </>
  );
}
