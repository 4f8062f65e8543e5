/**
 * A handover as the merchant API's route and the desk's both ask for it: the goods of a paid bill are handed over, and
 * each acquirer order that took a prepayment for it gets its closing receipt (full settlement). The bill's move and its
 * receipts' rows are written with the Idempotency-Key's answer (and whatever the caller records beside it, the desk's
 * audit line) in one transaction; the receipts then go to the acquirer's fiscal API before the answer, which lists them
 * as they then stand. The same key again answers the same handover (its receipts as they now stand); another key on a
 * bill handed over is 409 already_handed_over.
 */
import { billByOid } from '../billing/queries';
import type { Gateway } from '../payments/gatewayPort';
import { closingReceiptsOfBill } from '../payments/closingReceiptQueries';
import { handOver, HandoverRefused } from '../payments/closingReceipts';
import type { Store } from '../store/store';
import { ApiError } from './errors';
import { idempotent, type IdempotentRequest } from './idempotency';
import { closingReceiptView, iso } from './views';

/** A handover may be told a little after the fact, never ahead of it (a clock a few minutes fast is forgiven). */
const FUTURE_SLACK_MS = 5 * 60_000;

/**
 * Hands `objectOID` over at `handedOverAt` (absent: now) under `key`; `alongside` runs in the handover's transaction,
 * only when it is made (not on a replay). Answers the bill handed over with its closing receipts, and whether it was a replay.
 */
export async function handOverOnce(
  store: Store,
  gateway: Pick<Gateway, 'sendClosingReceipts'>,
  ffd: Parameters<typeof handOver>[3],
  key: Omit<IdempotentRequest, 'statusCode'>,
  objectOID: string,
  handedOverAt: string | undefined,
  alongside: (tx: Store) => Promise<void> = async () => {},
) {
  const at = handedOverAt === undefined ? store.now() : Date.parse(handedOverAt);
  if (at > store.now() + FUTURE_SLACK_MS) {
    throw new ApiError(400, 'invalid_request', 'The request has invalid fields', [{ field: 'handedOverAt', message: 'is in the future: the goods must be handed over already' }]);
  }
  const answer = await idempotent(store, { ...key, statusCode: 200 }, async (tx) => {
    try {
      const bill = await handOver(tx, objectOID, at, ffd);
      await alongside(tx);
      return { objectOID: bill.oid, handedOverAt: iso(bill.handed_over_at)! };
    } catch (error) {
      if (error instanceof HandoverRefused) throw new ApiError(error.kind === 'not_found' ? 404 : 409, error.kind, error.message);
      throw error;
    }
  });
  // Each receipt not yet sent goes now (each once); a replay sends what a lost process left unsent.
  await gateway.sendClosingReceipts(objectOID);
  const bill = (await billByOid(store, objectOID))!;
  const receipts = await closingReceiptsOfBill(store, objectOID);
  return {
    replayed: answer.replayed,
    handover: { objectOID, status: 'handed_over' as const, handedOverAt: iso(bill.handed_over_at)!, closingReceipts: receipts.map(closingReceiptView) },
  };
}
