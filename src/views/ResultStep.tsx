import { useSelector } from '@xstate/react';
import type { CheckoutActor } from '../machines/checkout';
import { messages } from '../services/messages';
import { StatusBlock } from './StatusBlock';

/** The result step inside the checkout (after fast payment): the polled payment status. */
export function ResultStep({ actor }: { actor: CheckoutActor }) {
  const status = useSelector(actor, (state) => state.children.paymentStatus);
  return (
    <section aria-labelledby="step-title">
      <h1 id="step-title" className="step-title">
        {messages.status.resultTitle}
      </h1>
      {status && <StatusBlock actor={status} quietUntilAnswered />}
    </section>
  );
}
