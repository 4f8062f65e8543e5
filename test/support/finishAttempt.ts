/**
 * A pending attempt driven to a final status the way the server drives it: through its chart (server/lifecycle/), by
 * the events that end an attempt in that status, with their effects (the change feed, the webhook, the bill). For tests
 * that need a settled attempt without an acquirer: `success` (its order registered and paid), `declined` (its bill
 * closed before it reached the acquirer), `refunded` (its order given back at the acquirer). Answers the attempt as it
 * now is, or undefined when its chart refused (it was no longer pending).
 */
import { recordOrder, markRegisterStarted } from '../../server/acquirer/attempts';
import { applyAcquirerOutcome } from '../../server/payments/outcome';
import { moveAttempt } from '../../server/payments/moves';
import type { AttemptRow, PaymentStatus } from '../../server/payments/tables';
import type { Store } from '../../server/store/store';

export async function finishAttempt(store: Store, orderId: string, status: Exclude<PaymentStatus, 'created'>): Promise<AttemptRow | undefined> {
  return store.transaction(async (tx) => {
    if (status === 'declined') {
      const moved = await moveAttempt(tx, orderId, { type: 'bill.closed' });
      return moved.kind === 'moved' ? moved.row : undefined;
    }
    if (!(await markRegisterStarted(tx, orderId, tx.now() + 20 * 60_000))) return undefined;
    const registered = await recordOrder(tx, orderId, { acquirer_order_id: `acquirer-${orderId}` });
    if (status === 'success') return applyAcquirerOutcome(tx, orderId, { type: 'acquirer.paid', paidKopecks: registered.amount_kopecks });
    return applyAcquirerOutcome(tx, orderId, { type: 'acquirer.refunded' });
  });
}
