import { useSelector } from '@xstate/react';
import { derive, type CheckoutActor } from '../machines/checkout';
import { messages } from '../services/messages';
import { EmailForm } from './EmailForm';

/** The e-mail form when no e-mail is known, else Continue alone. */
export function ContinueStep({ actor }: { actor: CheckoutActor }) {
  const emailKnown = useSelector(actor, (state) => derive.emailUsed(state.context) !== '');
  const rejected = useSelector(actor, (state) => state.context.emailError);
  const busy = useSelector(actor, (state) => state.hasTag('busy'));

  return emailKnown ? (
    <button type="button" className="button primary" disabled={busy} onClick={() => actor.send({ type: 'checkout.continue' })}>
      {messages.app.continue}
    </button>
  ) : (
    <EmailForm rejected={rejected} busy={busy} onSubmit={(email) => actor.send({ type: 'checkout.continue', email })} />
  );
}
