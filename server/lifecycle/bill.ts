/**
 * A bill's chart: open until a payment pays it, the merchant cancels it, or its deadline passes. The row's `state` is
 * the name of one of its states; `status` and `closed_as` follow from it (`billColumnsOf`). The merchant API's status
 * (billing/status.ts) reads them with the clock: an open bill past its deadline is expired before the sweep closes it.
 *
 * Where each event comes from: an attempt that paid it (`payment.succeeded`, from the attempt's chart), the merchant
 * API's cancel (`merchant.cancelled`) and the expiry sweep (`deadline.passed`).
 */
import { setup } from 'xstate';
import { effectsNamed } from './chart';

export type BillEvent =
  /** A payment paid the bill (`orderId` null: the sandbox seeds the bill as paid, with no payment). */
  | { type: 'payment.succeeded'; orderId: string | null }
  /** The merchant cancelled it. */
  | { type: 'merchant.cancelled' }
  /** Its deadline passed unpaid (the expiry sweep). */
  | { type: 'deadline.passed' };

/** What follows a move of a bill, done by payments in the move's transaction (payments/moves.ts). */
export const billEffects = ['tell the merchant it is paid', 'end the attempts the acquirer never heard of', 'tell the merchant it closed'] as const;
export type BillEffect = (typeof billEffects)[number];

const closing = ['end the attempts the acquirer never heard of', 'tell the merchant it closed'] as const;

export const billChart = setup({
  types: { events: {} as BillEvent },
  actions: effectsNamed(billEffects),
}).createMachine({
  id: 'bill',
  description: 'A bill: payable until a payment pays it, the merchant cancels it or its deadline passes.',
  initial: 'open',
  states: {
    // A bill paid in parts comes here as a state between open and paid (each part's payment moves it on, the last
    // one to paid); the closing receipt handed over to the payer comes as a state after paid.
    open: {
      description: 'Payable.',
      on: {
        'payment.succeeded': { target: 'paid', actions: 'tell the merchant it is paid' },
        'merchant.cancelled': { target: 'cancelled', actions: closing },
        'deadline.passed': { target: 'expired', actions: closing },
      },
    },
    paid: { description: 'Paid by one payment; it takes no other.' },
    cancelled: { type: 'final', description: 'Closed by the merchant; it takes no payment.' },
    expired: { type: 'final', description: 'Closed at its deadline; it takes no payment.' },
  },
});

export type BillState = 'open' | 'paid' | 'cancelled' | 'expired';

/** The bill's columns each state is read by (the merchant API, the page, the poll), the one place they meet. */
export const BILL_COLUMNS: Record<BillState, { status: 'open' | 'paid'; closed_as: 'cancelled' | 'expired' | null }> = {
  open: { status: 'open', closed_as: null },
  paid: { status: 'paid', closed_as: null },
  cancelled: { status: 'open', closed_as: 'cancelled' },
  expired: { status: 'open', closed_as: 'expired' },
};

export const billColumnsOf = (state: BillState) => BILL_COLUMNS[state];
