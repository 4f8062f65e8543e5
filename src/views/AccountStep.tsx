import { useSelector } from './useSelector';
import type { CheckoutActor } from '../machines/checkout';
import { formatPhone } from '../services/format';
import { messages } from '../services/messages';
import { usePage } from './appContext';
import { CodeFailed } from './CodeFailed';
import { ContinueStep } from './ContinueStep';
import { PaymentInfo } from './PaymentInfo';
import { SignInShell } from './SignInShell';
import { StepSection } from './StepSection';
import { useHydrated } from './useHydrated';

/** The registered-user screen: the signed-in card, or the sign-in form. */
export function AccountStep({ actor }: { actor: CheckoutActor }) {
  const bill = useSelector(actor, (state) => state.context.bill);
  const user = useSelector(actor, (state) => state.context.user);
  // The sign-in form comes in a chunk of its own: the state runs it (state.children.signIn) once that is here.
  const formShown = useSelector(actor, (state) => state.children.signIn !== undefined);
  const formFailed = useSelector(actor, (state) => state.hasTag('form code failed'));
  const SignInForm = usePage().views.signInForm();
  const hydrated = useHydrated();

  return (
    <StepSection title={bill.info.PaymentPurpose}>
      <PaymentInfo bill={bill} />
      {user ? (
        <>
          <div className="user-card">
            {user.picture ? (
              <img className="avatar" src={user.picture} alt="" width={48} height={48} />
            ) : (
              <span className="avatar avatar-initial" aria-hidden="true">
                {user.name.slice(0, 1)}
              </span>
            )}
            <div>
              <p className="user-name">{user.name}</p>
              <p className="user-id">
                {messages.account.id} {formatPhone(user.phone)}
              </p>
            </div>
            <button type="button" className="link" disabled={!hydrated} onClick={() => actor.send({ type: 'user.change' })}>
              {messages.account.changeUser}
            </button>
          </div>
          <ContinueStep actor={actor} />
        </>
      ) : hydrated && formFailed ? (
        <CodeFailed onRetry={() => actor.send({ type: 'code.retry' })} />
      ) : hydrated && formShown && SignInForm ? (
        <SignInForm actor={actor} />
      ) : (
        // The server's markup holds the form's outline with the amount, and keeps it until the form's code is here and
        // running: a form whose links and button work only once the page's script has hydrated it would take presses
        // before then and lose them, so the outline takes none and says what it waits for.
        <SignInShell />
      )}
    </StepSection>
  );
}
