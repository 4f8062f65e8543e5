/**
 * A capture or release of a held payment, as the merchant API's route and the desk's both ask for it: the move that
 * starts it is written with the request's Idempotency-Key (and whatever the caller records beside it, the desk's audit
 * line) under the attempt's lease; the acquirer is then told once, and the answer is the payment as it then stands. The
 * same request again answers the payment as it now is, and tells the acquirer nothing more.
 */
import { paymentStatusOf } from '../lifecycle/attempt';
import type { Gateway } from '../payments/gatewayPort';
import { beginCapture, beginRelease } from '../payments/holds';
import { paymentByOrder } from '../payments/queries';
import { parseMoney } from '../platform/money';
import type { Store } from '../store/store';
import { ApiError } from './errors';
import { idempotent, type IdempotentRequest } from './idempotency';
import { moneySchema } from './moneySchema';
import { paymentView, withDetails } from './views';

/** The body of a capture: absent (or `{}`), all that is held. */
export const captureBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    amount: { ...moneySchema, description: 'How much of the hold to take, more than 0.00 and at most what is held; absent: all of it. The rest is released.' },
  },
} as const;

/** What is asked of the hold: all or `kopecks` of it taken, or all of it let go. */
export type HoldMove = { kind: 'capture'; kopecks: number | null } | { kind: 'release' };

/** The kopecks a capture's body asks for (null: all); unparseable money becomes -1, which the capture refuses by its field. */
export const captureKopecksOf = (body: { amount?: { value: string } } | null | undefined): number | null => (body?.amount ? (parseMoney(body.amount.value) ?? -1) : null);

/**
 * Captures or releases the hold of `orderId` under `key` (refused as HoldRefused, 404 when there is no such payment);
 * `alongside` runs in the same transaction as the move, only when it is made (not on a replay). A payment still held
 * after the acquirer was told is the acquirer's silence: 502 acquirer_unavailable.
 */
export async function settleHoldOnce(
  store: Store,
  gateway: Pick<Gateway, 'settleHold'>,
  key: Omit<IdempotentRequest, 'statusCode'>,
  orderId: string,
  move: HoldMove,
  alongside: (tx: Store) => Promise<void> = async () => {},
) {
  if (!(await paymentByOrder(store, orderId))) throw new ApiError(404, 'not_found', 'No payment with this orderId');
  let replayed = false;
  await gateway.settleHold(orderId, async () => {
    const answer = await idempotent(store, { ...key, statusCode: 200 }, async (tx) => {
      if (move.kind === 'capture') await beginCapture(tx, orderId, move.kopecks);
      else await beginRelease(tx, orderId, 'merchant');
      await alongside(tx);
      return { orderId };
    });
    replayed = answer.replayed;
    return !replayed;
  });
  const [payment] = await withDetails(store, [(await paymentByOrder(store, orderId))!]);
  if (paymentStatusOf(payment!.state) === 'held') {
    throw new ApiError(502, 'acquirer_unavailable', 'The acquirer did not confirm it: the payment is still held. Try again (with a new Idempotency-Key).');
  }
  return { replayed, payment: paymentView(payment!) };
}
