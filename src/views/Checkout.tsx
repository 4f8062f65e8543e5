import { useSelector } from './useSelector';
import type { CheckoutActor, Step } from '../machines/checkout';
import { messages } from '../services/messages';
import { usePage } from './appContext';
import type { StepView } from './chunkViews';
import { CodeFailed } from './CodeFailed';
import { GuestStep } from './GuestStep';
import { AccountStep } from './AccountStep';
import { StepErrorBoundary } from './StepErrorBoundary';
import { useStepFocus } from './useStepFocus';

/** The first steps' views, in the first scripts; every other step's comes in its chunk of code (chunkViews.ts). */
const firstStepViews: Partial<Record<Step, StepView>> = { account: AccountStep, guest: GuestStep };

/**
 * Shows the view of the current step, with the 'Back' link while there is a step to go back to. While the code of a
 * step the payer asked for is on its way, the step's place says so; when it cannot come, the error with a retry.
 */
export function Checkout({ actor }: { actor: CheckoutActor }) {
  const step = useSelector(actor, (state) => state.context.step);
  // The payment's answer is no step to leave by Back: after a decline 'Попробовать снова' is the way back to paying.
  const canGoBack = useSelector(actor, (state) => state.context.history.length > 0 && !state.hasTag('settled'));
  const signedIn = useSelector(actor, (state) => state.context.user !== null);
  const loadingStep = useSelector(actor, (state) => state.hasTag('loading step'));
  const codeFailed = useSelector(actor, (state) => state.hasTag('step code failed'));
  const { goBack, reload = () => undefined, views } = usePage();
  // Signing in changes the account step's screen as a step change does: the sign-in form gives way to the payer's card.
  useStepFocus(signedIn ? `${step} signed in` : step);

  const View = firstStepViews[step] ?? views.step(step);
  return (
    <>
      {/* Back stays while a step's code is on its way or lost: it returns to the step on screen. */}
      {canGoBack && (
        <nav className="step-nav" aria-label="Навигация по шагам">
          <button type="button" className="link back-link" onClick={goBack}>
            <span aria-hidden="true">←</span> {messages.app.back}
          </button>
        </nav>
      )}
      {loadingStep ? (
        // The step asked for is on its way (on a slow network a Continue that changed nothing for seconds); the card's
        // min-height holds the layout.
        <p className="step-pending" role="status">
          <span className="spinner" aria-hidden="true" />
          {messages.app.stepLoading}
        </p>
      ) : codeFailed ? (
        <CodeFailed onRetry={() => actor.send({ type: 'code.retry' })} />
      ) : (
        // One boundary per step, so the step being left is removed at once rather than kept with its heading.
        <StepErrorBoundary key={step} onReload={reload}>
          {View && <View actor={actor} />}
        </StepErrorBoundary>
      )}
    </>
  );
}
