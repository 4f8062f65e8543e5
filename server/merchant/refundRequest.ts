/**
 * A refund as the merchant API's body asks for it (`createRefundBody`), made: the money strings become kopecks by
 * their digits, the payments domain writes the refund in the caller's transaction, and the answer is the API's view of
 * it. The API's route and the desk's both come in through here; each then asks the gateway to make it at once.
 */
import { quantityMilliOf } from '../billing/items';
import { itemsOfRefund } from '../payments/refundQueries';
import { createRefund } from '../payments/refunds';
import { parseMoney } from '../platform/money';
import type { Store } from '../store/store';
import { refundView } from './views';

/** The body of a refund request (createRefundBody in refundSchemas.ts validates it first). */
export interface RefundBody {
  amount?: { value: string };
  reason?: string;
  items?: { positionId: number; amount?: { value: string }; quantity?: number }[];
}

/** Unparseable money becomes an amount the refund's check refuses by its field (-1). */
const kopecksOf = (money: { value: string } | undefined) => (money ? (parseMoney(money.value) ?? -1) : null);

/** Writes the refund a body asks for (refused as RefundRefused); answers it as the API shows it. */
export async function askRefund(tx: Store, orderId: string, body: RefundBody, idempotencyKey: string) {
  const refund = await createRefund(tx, {
    orderId,
    amountKopecks: kopecksOf(body.amount),
    reason: body.reason ?? null,
    items: body.items?.map((item) => ({ positionId: item.positionId, amountKopecks: kopecksOf(item.amount), quantityMilli: item.quantity === undefined ? null : (quantityMilliOf(item.quantity) ?? -1) })) ?? null,
    idempotencyKey,
  });
  return refundView(refund, await itemsOfRefund(tx, refund.id));
}
