/**
 * Deposits: a bill that captures by hand has its payment's money held on the card, then the merchant captures it (all
 * or a part, the rest let go) or releases it, and a hold nobody settles is released by the server at its heldUntil.
 * Each step is a move of the attempt's chart (lifecycle/attempt.ts): `capture.sent` and `release.sent` are written
 * before the acquirer is told, with a compare-and-set, so of two captures at once only one is sent; the acquirer's
 * answer (or, when it was lost, its order read back) then moves the attempt on.
 */
import { splitByLargestRemainder } from './chargedItems';
import type { ReleaseReason } from '../lifecycle/attempt';
import { holdExpiringEvent } from '../merchant/events';
import type { Store } from '../store/store';
import { moveAttempt } from './moves';
import { attemptByOrder, itemsOfAttempt } from './queries';
import type { AttemptItemRow, AttemptRow } from './tables';

/** The merchant is warned this long before the server releases a hold by itself (payment.hold_expiring). */
export const HOLD_WARNING_MS = 24 * 60 * 60 * 1000;

/** Why the merchant's capture or release is refused. */
export class HoldRefused extends Error {
  constructor(
    readonly kind: 'not_found' | 'payment_not_held' | 'capture_exceeds_held' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}

const roubles = (kopecks: number) => `${Math.floor(kopecks / 100)}.${String(kopecks % 100).padStart(2, '0')} RUB`;

async function heldAttempt(tx: Store, orderId: string): Promise<AttemptRow> {
  const attempt = await attemptByOrder(tx, orderId);
  if (!attempt) throw new HoldRefused('not_found', 'No payment with this orderId');
  if (attempt.state !== 'held') throw new HoldRefused('payment_not_held', 'The payment is not held: only a held payment can be captured or released');
  return attempt;
}

/**
 * The merchant captures a held payment (`kopecks` null: all of it), in the caller's transaction: the attempt moves to
 * capturing with the amount asked, and deposit.do is then the caller's to send, once.
 */
export async function beginCapture(tx: Store, orderId: string, kopecks: number | null): Promise<AttemptRow> {
  const attempt = await heldAttempt(tx, orderId);
  const held = attempt.held_kopecks ?? attempt.amount_kopecks;
  const amount = kopecks ?? held;
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new HoldRefused('invalid', 'amount.value must be more than 0.00');
  if (amount > held) throw new HoldRefused('capture_exceeds_held', `${roubles(amount)} is more than is held: ${roubles(held)}`);
  const moved = await moveAttempt(tx, orderId, { type: 'capture.sent' }, { capture_kopecks: amount });
  // Another capture or release took it first (its compare-and-set won).
  if (moved.kind !== 'moved') throw new HoldRefused('payment_not_held', 'The payment is not held: only a held payment can be captured or released');
  return moved.row;
}

/** The hold is to be released (by the merchant, or its time ran out), in the caller's transaction: reverse.do follows. */
export async function beginRelease(tx: Store, orderId: string, reason: ReleaseReason): Promise<AttemptRow> {
  await heldAttempt(tx, orderId);
  const moved = await moveAttempt(tx, orderId, { type: 'release.sent', reason }, { release_reason: reason });
  if (moved.kind !== 'moved') throw new HoldRefused('payment_not_held', 'The payment is not held: only a held payment can be captured or released');
  return moved.row;
}

/**
 * The positions taken by a capture of `captured` kopecks of `items` (the held amount's): each lowered by its share of
 * what is let go, by largest remainder, so they add up to the capture exactly; a position lowered to nothing is left
 * off and the rest numbered again, 1, 2, …
 */
export function capturedItems(items: readonly AttemptItemRow[], captured: number): AttemptItemRow[] {
  const held = items.reduce((sum, item) => sum + item.amount_kopecks, 0);
  if (captured >= held) return [...items];
  const letGo = splitByLargestRemainder(
    items.map((item) => item.amount_kopecks),
    held - captured,
  );
  return items
    .map((item, i) => {
      const amount = item.amount_kopecks - letGo[i]!;
      return { ...item, amount_kopecks: amount, price_kopecks: Math.round((amount * 1000) / item.quantity_milli) };
    })
    .filter((item) => item.amount_kopecks > 0)
    .map((item, i) => ({ ...item, position_id: i + 1 }));
}

/** The attempt's positions become those a capture took (the receipt is for what was captured), in the caller's transaction. */
export async function recordCapturedItems(tx: Store, orderId: string, captured: number): Promise<void> {
  const items = await itemsOfAttempt(tx, orderId);
  if (items.length === 0) return;
  const taken = capturedItems(items, captured);
  await tx.db.deleteFrom('attempt_items').where('order_id', '=', orderId).execute();
  if (taken.length > 0) await tx.db.insertInto('attempt_items').values(taken).execute();
}

/** Holds whose heldUntil has come by `until` (the server releases them), oldest first. */
export const holdsDue = (store: Store, until: number, limit: number): Promise<AttemptRow[]> =>
  store.db.selectFrom('payment_attempts').selectAll().where('state', '=', 'held').where('held_until', '<=', until).orderBy('held_until').limit(limit).execute();

/** Holds released by `until` whose merchant was not yet warned, oldest first. */
const holdsToWarn = (store: Store, until: number, limit: number): Promise<AttemptRow[]> =>
  store.db
    .selectFrom('payment_attempts')
    .selectAll()
    .where('state', '=', 'held')
    .where('held_until', '<=', until)
    .where('hold_warned_at', 'is', null)
    .orderBy('held_until')
    .limit(limit)
    .execute();

/**
 * Tells the merchant, once, of each hold the server releases within a day (payment.hold_expiring); the mark is written
 * with a compare-and-set, so of two processes one tells it. Answers how many it told.
 */
export async function warnOfExpiringHolds(store: Store, limit = 100): Promise<number> {
  let warned = 0;
  for (const attempt of await holdsToWarn(store, store.now() + HOLD_WARNING_MS, limit)) {
    const told = await store.transaction(async (tx) => {
      const marked = await tx.db
        .updateTable('payment_attempts')
        .set({ hold_warned_at: tx.now() })
        .where('order_id', '=', attempt.order_id)
        .where('state', '=', 'held')
        .where('hold_warned_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (marked) await holdExpiringEvent(tx, marked);
      return marked !== undefined;
    });
    if (told) warned += 1;
  }
  return warned;
}
