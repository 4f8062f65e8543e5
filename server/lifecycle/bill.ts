/**
 * A bill's chart: open until payments pay it, the merchant cancels it, or its deadline passes. A bill the merchant lets
 * be paid in parts is partly paid between its first payment and the one that leaves nothing to pay. The row's `state` is
 * the name of one of its states; `status` and `closed_as` follow from it (`billColumnsOf`). The merchant API's status
 * (billing/status.ts) reads them with the clock: an open bill past its deadline is expired before the sweep closes it.
 *
 * A paid bill is handed over when the merchant hands the goods over: every payment of it was a prepayment, and the
 * handover closes them with a full-settlement receipt per order that took money.
 *
 * Where each event comes from: an attempt that paid it, or holds its money, or whose hold was released
 * (`payment.succeeded`, `payment.held`, `payment.released`, from the attempt's chart), the merchant API's cancel
 * (`merchant.cancelled`), the expiry sweep (`deadline.passed`) and the merchant API's handover (`goods.handedOver`).
 */
import { assertEvent, setup } from 'xstate';
import { effectsNamed } from './chart';

export type BillEvent =
  /**
   * A payment paid the bill or a part of it, leaving `remainingKopecks` to pay (`orderId` null: the sandbox seeds the bill
   * as paid, with no payment).
   */
  | { type: 'payment.succeeded'; orderId: string | null; remainingKopecks: number }
  /** A payment holds the bill's money on the card (its bill captures by hand). */
  | { type: 'payment.held'; orderId: string }
  /** The hold of the bill's money ended with nothing taken: the bill is payable again. */
  | { type: 'payment.released'; orderId: string }
  /** The merchant cancelled it. */
  | { type: 'merchant.cancelled' }
  /** Its deadline passed unpaid (the expiry sweep). */
  | { type: 'deadline.passed' }
  /**
   * The merchant handed the goods over at `at` (epoch ms): the closing receipt of each order that took a prepayment for
   * it, as the handover made them (the cart doReceipt sends, as JSON).
   */
  | { type: 'goods.handedOver'; at: number; receipts: { orderId: string; amountKopecks: number; cart: string }[] };

/** What follows a move of a bill, done by payments in the move's transaction (payments/moves.ts). */
export const billEffects = [
  'tell the merchant it is partly paid',
  'tell the merchant it is paid',
  'end the attempts the acquirer never heard of',
  'tell the merchant it closed',
  'close the prepayments',
] as const;
export type BillEffect = (typeof billEffects)[number];

const closing = ['end the attempts the acquirer never heard of', 'tell the merchant it closed'] as const;

/** A payment moves the bill on: partly paid while something remains, paid when nothing does. */
const paying = [
  { guard: 'something remains', target: 'partlyPaid', actions: 'tell the merchant it is partly paid' },
  { target: 'paid', actions: 'tell the merchant it is paid' },
] as const;

export const billChart = setup({
  types: { events: {} as BillEvent },
  actions: effectsNamed(billEffects),
  guards: {
    'something remains': ({ event }) => {
      assertEvent(event, 'payment.succeeded');
      return event.remainingKopecks > 0;
    },
  },
}).createMachine({
  id: 'bill',
  description: 'A bill: payable until payments pay it, the merchant cancels it or its deadline passes.',
  initial: 'open',
  states: {
    open: {
      description: 'Payable; nothing paid yet.',
      on: {
        'payment.succeeded': paying,
        'payment.held': 'held',
        'merchant.cancelled': { target: 'cancelled', actions: closing },
        'deadline.passed': { target: 'expired', actions: closing },
      },
    },
    partlyPaid: {
      description: 'Payable: a part is paid, the rest is still to pay (each part by a payment of its own).',
      // A part paid does not hold the bill open past its deadline, nor keep the merchant from cancelling it: the parts
      // paid stay paid, for the merchant to refund or keep.
      on: {
        'payment.succeeded': paying,
        'merchant.cancelled': { target: 'cancelled', actions: closing },
        'deadline.passed': { target: 'expired', actions: closing },
      },
    },
    held: {
      // Neither cancelled nor expired while the money is held: the merchant captures or releases it first. A deposit is
      // not paid in parts, so its capture pays the bill whatever it takes (less than held: the rest is released).
      description: 'A payment holds its money on the card: the merchant captures it (paid) or it is released (payable again).',
      on: {
        'payment.succeeded': { target: 'paid', actions: 'tell the merchant it is paid' },
        'payment.released': 'open',
      },
    },
    paid: {
      description: 'Nothing remains to pay; it takes no other payment.',
      on: { 'goods.handedOver': { target: 'handedOver', actions: 'close the prepayments' } },
    },
    handedOver: {
      type: 'final',
      description: 'Paid, and the goods handed over: each order that took a prepayment gets its closing receipt (full settlement).',
    },
    cancelled: { type: 'final', description: 'Closed by the merchant; it takes no payment.' },
    expired: { type: 'final', description: 'Closed at its deadline; it takes no payment.' },
  },
});

export type BillState = 'open' | 'partlyPaid' | 'held' | 'paid' | 'handedOver' | 'cancelled' | 'expired';

/** The bill's columns each state is read by (the merchant API, the page, the poll), the one place they meet. */
export const BILL_COLUMNS: Record<BillState, { status: 'open' | 'paid'; closed_as: 'cancelled' | 'expired' | null }> = {
  open: { status: 'open', closed_as: null },
  partlyPaid: { status: 'open', closed_as: null },
  held: { status: 'open', closed_as: null },
  paid: { status: 'paid', closed_as: null },
  // Still paid: what was paid stays paid, and refunds go on as for any paid bill.
  handedOver: { status: 'paid', closed_as: null },
  cancelled: { status: 'open', closed_as: 'cancelled' },
  expired: { status: 'open', closed_as: 'expired' },
};

export const billColumnsOf = (state: BillState) => BILL_COLUMNS[state];
