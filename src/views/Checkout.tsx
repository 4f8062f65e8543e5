import { Suspense, useEffect } from 'react';
import { useSelector } from '@xstate/react';
import type { CheckoutActor, RouteMeta } from '../machines/checkout';
import { messages } from '../services/messages';
import { usePage } from './appContext';
import { CheckByPhone, CheckSendCode, ChoosePaymentType, ForgotPassword, Register, ResultStep, Sbp, UsePoints } from './lazyViews';
import { NoReg } from './NoReg';
import { Reg } from './Reg';
import { StepErrorBoundary } from './StepErrorBoundary';
import { useStepFocus } from './useStepFocus';

/** Picks the view of the current step; each view reads its own slice of the checkout and sends events. */
export function Checkout({ actor }: { actor: CheckoutActor }) {
  const routeName = useSelector(actor, (state) => {
    const meta = Object.values(state.getMeta()) as Partial<RouteMeta>[];
    return meta.find((m) => m.route)?.route?.name ?? '';
  });
  const canGoBack = useSelector(actor, (state) => state.context.history.length > 0);
  const { goBack, reload = () => undefined } = usePage();
  useStepFocus(routeName);
  // Every payer's second step: fetched in the background once the first is painted, so Continue does not wait.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => void ChoosePaymentType.preload().catch(() => undefined));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);

  return (
    <>
      {canGoBack && (
        <nav className="step-nav" aria-label="Навигация по шагам">
          <button type="button" className="link back-link" onClick={goBack}>
            <span aria-hidden="true">←</span> {messages.app.back}
          </button>
        </nav>
      )}
      {/*
        Steps from lazyViews render nothing until their code arrives (the card's min-height holds the layout). One
        boundary per step, so the step being left is removed at once rather than kept hidden with its heading.
      */}
      <StepErrorBoundary key={routeName} onReload={reload}>
        <Suspense fallback={null}>
          <StepView name={routeName} actor={actor} />
        </Suspense>
      </StepErrorBoundary>
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
