import { useState } from 'react';
import { useSelector } from './useSelector';
import { derive, type CheckoutActor } from '../machines/checkout';
import { messages } from '../services/messages';
import { EmailForm } from './EmailForm';
import { ChoosePaymentType } from './lazyViews';
import { SubmitButton } from './SubmitButton';

/** The e-mail form when no e-mail is known, else Continue alone. */
export function ContinueStep({ actor }: { actor: CheckoutActor }) {
  const emailKnown = useSelector(actor, (state) => derive.emailUsed(state.context) !== '');
  const rejected = useSelector(actor, (state) => state.context.emailError);
  const busy = useSelector(actor, (state) => state.hasTag('busy'));
  const typed = useSelector(actor, (state) => state.context.typed.email ?? '');
  // With the e-mail known, Continue goes straight on: the way-to-pay step's code (and its children's) first.
  const [loading, setLoading] = useState(false);

  return emailKnown ? (
    <form
      className="form"
      onSubmit={(event) => {
        event.preventDefault();
        setLoading(true);
        void ChoosePaymentType.preload()
          .then(() => actor.send({ type: 'checkout.continue' }), () => undefined)
          .finally(() => setLoading(false));
      }}
    >
      <SubmitButton busy={busy || loading}>{messages.app.continue}</SubmitButton>
    </form>
  ) : (
    <EmailForm
      rejected={rejected}
      busy={busy}
      initial={typed}
      onType={(email) => actor.send({ type: 'payer.typed', typed: { email } })}
      onSubmit={(email) => actor.send({ type: 'checkout.continue', email })}
    />
  );
}
