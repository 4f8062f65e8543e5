import { Suspense } from 'react';
import { useSelector } from '@xstate/react';
import type { CheckoutActor } from '../machines/checkout';
import { formatPhone } from '../services/format';
import { messages } from '../services/messages';
import { ContinueStep } from './ContinueStep';
import { PaymentInfo } from './PaymentInfo';
import { SignInForm } from './lazyViews';
import { StepSection } from './StepSection';
import { useHydrated } from './useHydrated';

/** The registered-user screen: the signed-in card, or the sign-in form. */
export function Reg({ actor }: { actor: CheckoutActor }) {
  const bill = useSelector(actor, (state) => state.context.bill);
  const user = useSelector(actor, (state) => state.context.user);
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
                {messages.reg.id} {formatPhone(user.phone)}
              </p>
            </div>
            <button type="button" className="link" disabled={!hydrated} onClick={() => actor.send({ type: 'user.change' })}>
              {messages.reg.changeUser}
            </button>
          </div>
          <ContinueStep actor={actor} />
        </>
      ) : hydrated ? (
        // The form and its phone mask load on demand; the placeholder keeps the form's height meanwhile.
        <Suspense fallback={<div className="form-pending" />}>
          <SignInForm actor={actor} />
        </Suspense>
      ) : (
        // The server's markup holds the placeholder: a form whose links and button work only once its code is here
        // would take presses before then and lose them.
        <div className="form-pending" />
      )}
    </StepSection>
  );
}
