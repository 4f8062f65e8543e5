/**
 * A payment attempt's chart: one try to pay a bill, from its creation to how its money ended. The row's `state` is the
 * name of one of its states; `status`, the merchant API's word for it, follows from the state (`paymentStatusOf`).
 *
 * Where each event comes from: Pay (`register.sent`, `acquirer.registered`, `form.lost`, `points.covered`), the
 * acquirer's word read by the gateway after its callback, a poll or the sweep (`acquirer.*`, `session.expired`), the
 * bill's cancel or expiry (`bill.closed`), a refund that succeeded (`refund.succeeded`), and the merchant's capture or
 * release of a hold, or the server's release of one whose time ran out (`capture.sent`, `release.sent`).
 */
import { assertEvent, setup } from 'xstate';
import { doneByTheWriter } from './chart';

/** The merchant API's statuses of a payment (its answers and webhooks name no other). */
export type PaymentStatus = 'created' | 'held' | 'success' | 'declined' | 'released' | 'refunded';

/**
 * The words the attempts' `status` column takes (its CHECK is older than holds and SQLite cannot widen it in place): a
 * hold is stored as still pending, a released one as declined. The API reads the state (`paymentStatusOf`).
 */
export type StoredPaymentStatus = 'created' | 'success' | 'declined' | 'refunded';

/** Why a hold was released: the merchant released it, or its time ran out (the server's or the acquirer's). */
export type ReleaseReason = 'merchant' | 'expired';

/** Why the bill could not keep a payment whose money was taken: the automatic refund's reason. */
export type AutomaticRefundReason = 'bill-paid' | 'bill-closed' | 'points-spent';

export type AttemptEvent =
  /** register.do is about to go out for the attempt's order: from now on the acquirer may have it. */
  | { type: 'register.sent' }
  /** The acquirer's order is known: register.do answered, or the order was found under our order number. */
  | { type: 'acquirer.registered' }
  /** A card order whose form was never learnt (register.do's answer was lost): nobody can have paid on it. */
  | { type: 'form.lost' }
  /** The bill closed (cancelled, expired) before the attempt reached the acquirer. */
  | { type: 'bill.closed' }
  /** Points alone pay the bill: the server itself confirms it (checked in the same transaction as the attempt). */
  | { type: 'points.covered' }
  /**
   * The acquirer says the order is paid, with what the chart decides by: the amount it took and the amount asked, the
   * bill's status, and whether the customer still has the points the attempt spends.
   */
  | { type: 'acquirer.paid'; paidKopecks: number; askedKopecks: number; bill: 'unpaid' | 'paid' | 'closed'; pointsThere: boolean }
  /** The acquirer says the order was declined (by the bank, the payer, its own time-out) or reversed. */
  | { type: 'acquirer.declined'; reason: 'declined' | 'reversed' }
  /** The acquirer says the order's money was given back before this server heard it was paid. */
  | { type: 'acquirer.refunded' }
  /** The order's session is over with nothing paid: the acquirer says it still waits, or knows no such order. */
  | { type: 'session.expired' }
  /**
   * The acquirer holds the order's money on the card (a bill that captures by hand): the merchant takes it later, when
   * the bill still takes a hold (open, nothing paid or held, not past its deadline).
   */
  | { type: 'acquirer.held'; billOpen: boolean }
  /** deposit.do is about to go out for the held money: from now on the acquirer may have taken it. */
  | { type: 'capture.sent' }
  /** reverse.do is about to go out for the held money: from now on the acquirer may have let it go. */
  | { type: 'release.sent'; reason: ReleaseReason }
  /** The acquirer says it took the held money (all of it or a part; the rest let go). */
  | { type: 'acquirer.captured'; capturedKopecks: number }
  /** The acquirer says the hold ended with nothing taken: reversed, or ended by its own time-out. */
  | { type: 'acquirer.released'; reason: ReleaseReason }
  /** A refund of the payment succeeded: what its refunds have given back now, and what was paid. */
  | { type: 'refund.succeeded'; givenBackKopecks: number; paidKopecks: number };

/** What follows a move of an attempt, done by payments in the move's transaction (payments/moves.ts). */
export const attemptEffects = [
  'write off the points',
  'announce the status',
  'mark the bill paid',
  'refund it automatically',
  'raise the amount alert',
  'mark the bill held',
  'reopen the bill',
] as const;
export type AttemptEffect = (typeof attemptEffects)[number];

/** The tag of the states in which the attempt waits for the acquirer's word (the gateway asks it then, and only then). */
export const AT_ACQUIRER = 'at the acquirer';

export const attemptChart = setup({
  types: { events: {} as AttemptEvent, tags: {} as typeof AT_ACQUIRER },
  actions: {
    'write off the points': doneByTheWriter('write off the points'),
    'announce the status': doneByTheWriter('announce the status'),
    'mark the bill paid': doneByTheWriter('mark the bill paid'),
    'refund it automatically': (_: unknown, _params: { why: AutomaticRefundReason }) => doneByTheWriter('refund it automatically')(),
    'raise the amount alert': doneByTheWriter('raise the amount alert'),
    'mark the bill held': doneByTheWriter('mark the bill held'),
    'reopen the bill': doneByTheWriter('reopen the bill'),
  },
  guards: {
    'another amount than asked': ({ event }) => {
      assertEvent(event, 'acquirer.paid');
      return event.paidKopecks !== event.askedKopecks;
    },
    'bill paid already': ({ event }) => {
      assertEvent(event, 'acquirer.paid');
      return event.bill === 'paid';
    },
    'bill closed': ({ event }) => {
      assertEvent(event, 'acquirer.paid');
      return event.bill === 'closed';
    },
    'points spent meanwhile': ({ event }) => {
      assertEvent(event, 'acquirer.paid');
      return !event.pointsThere;
    },
    'bill no longer open': ({ event }) => {
      assertEvent(event, 'acquirer.held');
      return !event.billOpen;
    },
    'gives back the rest': ({ event }) => {
      assertEvent(event, 'refund.succeeded');
      return event.givenBackKopecks >= event.paidKopecks;
    },
  },
}).createMachine({
  id: 'attempt',
  description: 'A payment attempt: one try to pay a bill by one way, from Pay to how its money ended.',
  initial: 'created',
  states: {
    created: {
      description: 'Made by Pay; nothing sent to the acquirer yet.',
      on: {
        'register.sent': 'atAcquirer.registering',
        'bill.closed': { target: 'declined', actions: 'announce the status' },
        'points.covered': { target: 'coveredByPoints', actions: ['write off the points', 'announce the status', 'mark the bill paid'] },
      },
    },
    atAcquirer: {
      tags: AT_ACQUIRER,
      initial: 'registering',
      // The acquirer's word applies whatever this server knows of the order yet. Held money is apart (`holding`): the
      // acquirer's word on a hold is whether it was taken or let go.
      on: {
        'acquirer.paid': [
          { guard: 'another amount than asked', target: 'declined', actions: ['raise the amount alert', 'announce the status'] },
          { guard: 'bill paid already', target: 'givingBack', actions: [{ type: 'refund it automatically', params: { why: 'bill-paid' } }, 'announce the status'] },
          { guard: 'bill closed', target: 'givingBack', actions: [{ type: 'refund it automatically', params: { why: 'bill-closed' } }, 'announce the status'] },
          { guard: 'points spent meanwhile', target: 'givingBack', actions: [{ type: 'refund it automatically', params: { why: 'points-spent' } }, 'announce the status'] },
          { target: 'paid', actions: ['write off the points', 'announce the status', 'mark the bill paid'] },
        ],
        'acquirer.declined': { target: 'declined', actions: 'announce the status' },
        'acquirer.refunded': { target: 'givenBack', actions: 'announce the status' },
        'session.expired': { target: 'expired', actions: 'announce the status' },
      },
      states: {
        registering: {
          description: 'register.do went out; its answer is not kept (yet, or lost): the acquirer may have the order.',
          on: {
            'acquirer.registered': 'registered',
            'form.lost': { target: '#attempt.declined', actions: 'announce the status' },
          },
        },
        registered: {
          description: "The acquirer's order is known: the payer pays on its form, QR or bank app.",
          on: {
            'acquirer.held': [
              // Held for a bill that expired, was cancelled or paid while the payer was on the form: the bill keeps no
              // money, so the hold is let go at once (reverse.do, as the server releases a hold whose time ran out).
              { guard: 'bill no longer open', target: '#attempt.holding.releasing' },
              { target: '#attempt.holding.held', actions: ['announce the status', 'mark the bill held'] },
            ],
          },
        },
      },
    },
    holding: {
      // The acquirer is still asked of a hold: its own time-out may end it, and a capture or release whose answer was
      // lost is settled by reading the order, never by sending it again.
      tags: AT_ACQUIRER,
      initial: 'held',
      on: {
        'acquirer.captured': { target: 'captured', actions: ['write off the points', 'announce the status', 'mark the bill paid'] },
        'acquirer.released': { target: 'released', actions: ['announce the status', 'reopen the bill'] },
      },
      states: {
        held: {
          description: 'The acquirer holds the money on the card: the merchant captures or releases it, or the server releases it at its time.',
          on: {
            'capture.sent': 'capturing',
            'release.sent': 'releasing',
          },
        },
        capturing: {
          description: "deposit.do went out; its answer is not kept (yet, or lost): the acquirer may have taken the money.",
          // The order read back still held: the capture never happened; the hold may be captured or released again.
          on: { 'acquirer.held': 'held' },
        },
        releasing: {
          description: 'reverse.do went out; its answer is not kept (yet, or lost): the acquirer may have let the money go.',
          on: { 'acquirer.held': 'held' },
        },
      },
    },
    captured: {
      description: "The bill's payment: the held money taken (all or a part, the rest let go), the bill paid.",
      on: {
        'refund.succeeded': [{ guard: 'gives back the rest', target: 'fullyRefunded' }, { target: 'partlyRefunded' }],
      },
    },
    released: { type: 'final', description: 'The hold ended with nothing taken: released by the merchant, or its time ran out.' },
    paid: {
      description: "The bill's payment: the money taken, the points written off, the bill paid.",
      on: {
        'refund.succeeded': [{ guard: 'gives back the rest', target: 'fullyRefunded' }, { target: 'partlyRefunded' }],
      },
    },
    partlyRefunded: {
      description: "Still the bill's payment; its refunds have given back a part of the money.",
      on: {
        'refund.succeeded': [{ guard: 'gives back the rest', target: 'fullyRefunded' }, { target: 'partlyRefunded' }],
      },
    },
    fullyRefunded: { type: 'final', description: "Still the bill's payment; its refunds have given all the money back." },
    coveredByPoints: { type: 'final', description: 'Points alone paid the bill: no money was taken, none can go back.' },
    givingBack: {
      description: 'Money taken for a bill that could not keep it (paid by another, closed, its points spent): its automatic refund is under way.',
      on: { 'refund.succeeded': 'givenBack' },
    },
    givenBack: { type: 'final', description: 'The money taken for this attempt went back.' },
    declined: { type: 'final', description: 'Nothing paid: declined, reversed, its form lost, its bill closed first, or another amount taken.' },
    expired: { type: 'final', description: "Nothing paid within the order's session." },
  },
});

export type AttemptState =
  | 'created'
  | 'registering'
  | 'registered'
  | 'held'
  | 'capturing'
  | 'releasing'
  | 'captured'
  | 'released'
  | 'paid'
  | 'partlyRefunded'
  | 'fullyRefunded'
  | 'coveredByPoints'
  | 'givingBack'
  | 'givenBack'
  | 'declined'
  | 'expired';

/**
 * The merchant API's status of each state, the one place they meet. A payment stays `success` once it paid its bill,
 * whatever its refunds gave back (the API shows that as `refunded`, an amount); `refunded` is money taken for a bill
 * that could not keep it, or given back at the acquirer before this server heard it was paid.
 */
export const PAYMENT_STATUS: Record<AttemptState, PaymentStatus> = {
  created: 'created',
  registering: 'created',
  registered: 'created',
  held: 'held',
  capturing: 'held',
  releasing: 'held',
  captured: 'success',
  released: 'released',
  paid: 'success',
  partlyRefunded: 'success',
  fullyRefunded: 'success',
  coveredByPoints: 'success',
  givingBack: 'refunded',
  givenBack: 'refunded',
  declined: 'declined',
  expired: 'declined',
};

export const paymentStatusOf = (state: AttemptState): PaymentStatus => PAYMENT_STATUS[state];

/** The stored column's word for a state: the API's, but a hold is pending and a released hold declined. */
export function storedStatusOf(state: AttemptState): StoredPaymentStatus {
  const status = PAYMENT_STATUS[state];
  return status === 'held' ? 'created' : status === 'released' ? 'declined' : status;
}

/** The states in which the API says `status`, for a filter by it. */
export const statesWithStatus = (status: PaymentStatus): AttemptState[] =>
  (Object.keys(PAYMENT_STATUS) as AttemptState[]).filter((state) => PAYMENT_STATUS[state] === status);
