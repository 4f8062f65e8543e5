/**
 * A refund's chart: a row that gives back money of a payment (the merchant's, through its API, or the automatic one of
 * a payment its bill could not keep). The row's `state` is the name of one of its states; `status`, the merchant API's
 * word for it, follows from the state (`refundStatusOf`).
 *
 * Where each event comes from: the gateway's refunder, which sends each refund once (`refund.sent`) and hears the
 * acquirer's answer (`acquirer.*`), or, the answer lost, reads the order now or at a later sweep (`lostAnswer.*`).
 */
import { setup } from 'xstate';
import { effectsNamed } from './chart';

/** The merchant API's statuses of a refund. */
export type RefundStatus = 'pending' | 'succeeded' | 'failed';

export type RefundEvent =
  /** The refund is about to go to the acquirer, the one time it ever goes. */
  | { type: 'refund.sent' }
  /** The acquirer answered that it made it. */
  | { type: 'acquirer.refunded' }
  /** The acquirer refused it. */
  | { type: 'acquirer.refused' }
  /** Its answer was lost, and the order shows the money given back. */
  | { type: 'lostAnswer.seen' }
  /** Its answer was lost, and the order has not shown it for longer than a refund takes to show. */
  | { type: 'lostAnswer.unseen' };

/** What follows a move of a refund, done by payments in the move's transaction (payments/moves.ts). */
export const refundEffects = ['give the points back', 'tell the payment', 'tell the merchant'] as const;
export type RefundEffect = (typeof refundEffects)[number];

const succeeded = { target: 'succeeded', actions: ['give the points back', 'tell the payment', 'tell the merchant'] } as const;
const failed = { target: 'failed', actions: ['tell the merchant'] } as const;

export const refundChart = setup({
  types: { events: {} as RefundEvent },
  actions: effectsNamed(refundEffects),
}).createMachine({
  id: 'refund',
  description: 'A refund of a payment: asked, sent to the acquirer once, then made or not.',
  initial: 'pending',
  states: {
    pending: {
      description: 'Asked by the merchant, or made automatically; not yet sent to the acquirer.',
      on: { 'refund.sent': 'sent' },
    },
    sent: {
      description: "Sent to the acquirer, never again: its answer, or the order's refunded amount, tells the end.",
      on: {
        'acquirer.refunded': succeeded,
        'lostAnswer.seen': succeeded,
        'acquirer.refused': failed,
        'lostAnswer.unseen': failed,
      },
    },
    succeeded: { type: 'final', description: 'The money went back; the points spent went back in proportion.' },
    failed: { type: 'final', description: 'Nothing went back: the money stays refundable.' },
  },
});

export type RefundState = 'pending' | 'sent' | 'succeeded' | 'failed';

/** The merchant API's status of each state, the one place they meet: a refund sent is still pending to the merchant. */
export const REFUND_STATUS: Record<RefundState, RefundStatus> = { pending: 'pending', sent: 'pending', succeeded: 'succeeded', failed: 'failed' };

export const refundStatusOf = (state: RefundState): RefundStatus => REFUND_STATUS[state];
