import { useSelector } from './useSelector';
import type { CheckoutActor } from '../machines/checkout';
import { stepMessages } from '../services/stepMessages';
import { usePage } from './appContext';
import { PaymentEnd } from './PaymentEnd';
import { billHref } from './ResultPage';
import { StepSection } from './StepSection';

/**
 * The result step inside the checkout (after fast payment): the polled status and, paid, the receipt. 'Попробовать
 * снова' after a decline is the step back to choosing the way to pay (through the browser's history, as 'Назад' is),
 * with the e-mail and the choice as they were.
 */
export function ResultStep({ actor }: { actor: CheckoutActor }) {
  const status = useSelector(actor, (state) => state.children.paymentStatus);
  const returnUrl = useSelector(actor, (state) => state.context.bill.returnUrl ?? null);
  const billLink = useSelector(actor, (state) => state.context.bill.objectOID);
  const { config, goBack, reload = () => undefined } = usePage();
  return (
    <StepSection title={stepMessages.status.resultTitle}>
      {status && <PaymentEnd actor={status} merchant={config.merchant} returnUrl={returnUrl} retry={{ onRetry: goBack }} onReload={reload} quietUntilAnswered billHref={billHref(billLink)} />}
    </StepSection>
  );
}
