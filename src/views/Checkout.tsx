import { useSelector } from '@xstate/react';
import type { CheckoutActor, RouteMeta } from '../machines/checkout';
import { messages } from '../services/messages';
import { usePage } from './appContext';
import { CheckByPhone } from './CheckByPhone';
import { CheckSendCode } from './CheckSendCode';
import { ChoosePaymentType } from './ChoosePaymentType';
import { ForgotPassword } from './ForgotPassword';
import { NoReg } from './NoReg';
import { Reg } from './Reg';
import { Register } from './Register';
import { ResultStep } from './ResultStep';
import { Sbp } from './Sbp';
import { UsePoints } from './UsePoints';
import { useStepFocus } from './useStepFocus';

/** Picks the view of the current step; each view reads its own slice of the checkout and sends events. */
export function Checkout({ actor }: { actor: CheckoutActor }) {
  const routeName = useSelector(actor, (state) => {
    const meta = Object.values(state.getMeta()) as Partial<RouteMeta>[];
    return meta.find((m) => m.route)?.route?.name ?? '';
  });
  const canGoBack = useSelector(actor, (state) => state.context.history.length > 0);
  const { goBack } = usePage();
  useStepFocus(routeName);

  return (
    <>
      {canGoBack && (
        <nav className="step-nav" aria-label="Навигация по шагам">
          <button type="button" className="link back-link" onClick={goBack}>
            <span aria-hidden="true">←</span> {messages.app.back}
          </button>
        </nav>
      )}
      <StepView name={routeName} actor={actor} />
    </>
  );
}

function StepView({ name, actor }: { name: string; actor: CheckoutActor }) {
  switch (name) {
    case 'noReg':
      return <NoReg actor={actor} />;
    case 'reg':
      return <Reg actor={actor} />;
    case 'choosePaymentType':
      return <ChoosePaymentType actor={actor} />;
    case 'sbp':
      return <Sbp actor={actor} />;
    case 'usePoints':
      return <UsePoints actor={actor} />;
    case 'checkSendCode':
      return <CheckSendCode actor={actor} />;
    case 'checkByPhone':
      return <CheckByPhone actor={actor} />;
    case 'forgot-password':
      return <ForgotPassword actor={actor} />;
    case 'register':
      return <Register actor={actor} />;
    case 'result':
      return <ResultStep actor={actor} />;
    default:
      return null;
  }
}
