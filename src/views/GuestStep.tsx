import { useSelector } from './useSelector';
import { derive, type CheckoutActor } from '../machines/checkout';
import { formatPoints } from '../services/format';
import { messages } from '../services/messages';
import { ContinueStep } from './ContinueStep';
import { PaymentInfo } from './PaymentInfo';
import { StepSection } from './StepSection';
import { useHydrated } from './useHydrated';

/** The no-registration screen: title, client, payment info, points block, e-mail form, Continue. */
export function GuestStep({ actor }: { actor: CheckoutActor }) {
  const bill = useSelector(actor, (state) => state.context.bill);
  const showPoints = useSelector(actor, (state) => derive.canUsePoints(state.context));
  const usedPoints = useSelector(actor, (state) => state.context.usedPoints);
  const hydrated = useHydrated();

  return (
    <StepSection title={bill.info.PaymentPurpose}>
      {bill.user.Name && (
        <p className="client-line">
          {messages.guest.client} <strong>{bill.user.Name}</strong>
        </p>
      )}
      <PaymentInfo bill={bill} usedPoints={usedPoints} />
      {showPoints && (
        <div className="points-block">
          <div>
            <p className="points-title">{messages.points.blockTitle}</p>
            <p className="points-available">
              {usedPoints > 0 ? `${messages.points.used}: ${formatPoints(usedPoints)}` : `${messages.points.canUse} ${formatPoints(bill.usefulPoints)}`}
            </p>
          </div>
          {/* Off in the server's markup: a press before the page's script has hydrated it would be lost. */}
          <button type="button" className="button secondary" disabled={!hydrated} onClick={() => actor.send({ type: 'nav.goTo', step: 'usePoints' })}>
            {usedPoints > 0 ? messages.points.change : messages.points.use}
          </button>
        </div>
      )}
      <ContinueStep actor={actor} />
    </StepSection>
  );
}
