import { useSelector } from './useSelector';
import { derive, type CheckoutActor } from '../machines/checkout';
import { messages } from '../services/messages';
import { EmailForm } from './EmailForm';
import { SubmitButton } from './SubmitButton';

/** The e-mail form when no e-mail is known, else Continue alone. */
export function ContinueStep({ actor }: { actor: CheckoutActor }) {
  const emailKnown = useSelector(actor, (state) => derive.emailUsed(state.context) !== '');
  const rejected = useSelector(actor, (state) => state.context.emailError);
  const busy = useSelector(actor, (state) => state.hasTag('busy'));
  const typed = useSelector(actor, (state) => state.context.typed.email ?? '');

  // With the e-mail known, Continue goes straight on (the checkout fetches the way to pay's code first if need be).
  return emailKnown ? (
    <form
      className="form"
      onSubmit={(event) => {
        event.preventDefault();
        actor.send({ type: 'checkout.continue' });
      }}
    >
      <SubmitButton busy={busy}>{messages.app.continue}</SubmitButton>
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
