import { Suspense, useEffect, type ComponentType } from 'react';
import { useSelector } from './useSelector';
import type { CheckoutActor, Step } from '../machines/checkout';
import { messages } from '../services/messages';
import { usePage } from './appContext';
import { CheckByPhone, CheckSendCode, ChoosePaymentType, ForgotPassword, Reg, Register, ResultStep, Sbp, UsePoints } from './lazyViews';
import { NoReg } from './NoReg';
import { StepErrorBoundary } from './StepErrorBoundary';
import { useStepFocus } from './useStepFocus';

/** The view of every step of src/machines/steps.ts; each reads its own slice of the checkout and sends events. */
const stepViews: Record<Step, ComponentType<{ actor: CheckoutActor }>> = {
  reg: Reg,
  noReg: NoReg,
  usePoints: UsePoints,
  checkSendCode: CheckSendCode,
  checkByPhone: CheckByPhone,
  choosePaymentType: ChoosePaymentType,
  sbp: Sbp,
  result: ResultStep,
  forgotPassword: ForgotPassword,
  register: Register,
};

/** Shows the view of the current step, with the 'Back' link while there is a step to go back to. */
export function Checkout({ actor }: { actor: CheckoutActor }) {
  const step = useSelector(actor, (state) => state.context.step);
  const canGoBack = useSelector(actor, (state) => state.context.history.length > 0);
  const signedIn = useSelector(actor, (state) => state.context.user !== null);
  const { goBack, reload = () => undefined, preload } = usePage();
  // Signing in changes the reg step's screen as a step change does: the sign-in form gives way to the payer's card.
  useStepFocus(signedIn ? `${step} signed in` : step);
  // Every payer's second step (and the page's other background code): fetched once the first is painted, so
  // Continue and Pay do not wait.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        void ChoosePaymentType.preload().catch(() => undefined);
        preload?.();
      });
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [preload]);

  const View = stepViews[step];
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
        Steps from lazyViews show that they are on their way until their code arrives (on a slow network a
        Continue that changed nothing for seconds); the card's min-height holds the layout. One boundary per step, so
        the step being left is removed at once rather than kept hidden with its heading.
      */}
      <StepErrorBoundary key={step} onReload={reload}>
        <Suspense
          fallback={
            <p className="step-pending" role="status">
              <span className="spinner" aria-hidden="true" />
              {messages.app.stepLoading}
            </p>
          }
        >
          <View actor={actor} />
        </Suspense>
      </StepErrorBoundary>
    </>
  );
}
