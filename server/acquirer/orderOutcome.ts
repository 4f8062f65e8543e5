/**
 * What the acquirer's word on an order means for its attempt: the event the attempt's chart hears (paid, declined,
 * refunded, held; taken or let go, for a hold), or null while the order is still open.
 */
import type { AcquirerOutcome } from '../payments/outcome';
import type { AttemptRow } from '../payments/tables';
import type { Order } from './port';

/** A hold's states: the acquirer's word there is whether the money was taken or let go. */
export const HOLDING = new Set(['held', 'capturing', 'releasing']);

/** The acquirer's word on a held attempt's order; null while it is held and nothing was asked of it. */
export function holdOutcomeOf(attempt: AttemptRow, found: Order | null): AcquirerOutcome | null {
  switch (found?.state.kind) {
    case 'paid':
    case 'refunded':
      return { type: 'acquirer.captured', capturedKopecks: found.taken };
    case 'declined':
      // Reversed by a release, or ended by the acquirer's own time-out.
      return { type: 'acquirer.released', reason: attempt.release_reason ?? 'expired' };
    case 'held':
      // Still held after a capture or release went out: it never got there (the money may be taken or let go again).
      return attempt.state === 'held' ? null : { type: 'acquirer.held' };
    default:
      return null;
  }
}

/**
 * The acquirer's word on the attempt's order, as the attempt's chart hears it; null while the order is still open.
 * `found` null: the acquirer has no such order.
 */
export function outcomeOf(attempt: AttemptRow, found: Order | null, now: number): AcquirerOutcome | null {
  if (HOLDING.has(attempt.state)) return holdOutcomeOf(attempt, found);
  // Nothing paid and the order's session is over: it can no longer be paid.
  const sessionOver = attempt.expires_at !== null && now > attempt.expires_at;
  if (!found) return sessionOver ? { type: 'session.expired' } : null;
  switch (found.state.kind) {
    case 'paid':
      return { type: 'acquirer.paid', paidKopecks: found.amount };
    case 'declined':
      return { type: 'acquirer.declined', reason: found.state.reason };
    case 'refunded':
      return { type: 'acquirer.refunded' };
    case 'waiting':
      return sessionOver ? { type: 'session.expired' } : null;
    case 'held':
      // The money is held on the card (a bill that captures by hand): the merchant takes it or lets it go.
      return { type: 'acquirer.held' };
    case 'paying':
      // Money may be moving: wait for the acquirer's final word.
      return null;
  }
}
