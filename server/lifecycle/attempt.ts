/**
 * A payment attempt's chart: one try to pay a bill, from its creation to how its money ended. The row's `state` is the
 * name of one of its states; `status`, the merchant API's word for it, follows from the state (`paymentStatusOf`).
 *
 * Where each event comes from: Pay (`register.sent`, `acquirer.registered`, `form.lost`, `points.covered`), the
 * acquirer's word read by the gateway after its callback, a poll or the sweep (`acquirer.*`, `session.expired`), the
 * bill's cancel or expiry (`bill.closed`), and a refund that succeeded (`refund.succeeded`).
 */
import { assertEvent, setup } from 'xstate';
import { doneByTheWriter } from './chart';

/** The merchant API's statuses of a payment (its answers and webhooks name no other). */
export type PaymentStatus = 'created' | 'success' | 'declined' | 'refunded';

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
  /** A refund of the payment succeeded: what its refunds have given back now, and what was paid. */
  | { type: 'refund.succeeded'; givenBackKopecks: number; paidKopecks: number };

/** What follows a move of an attempt, done by payments in the move's transaction (payments/moves.ts). */
export const attemptEffects = ['write off the points', 'announce the status', 'mark the bill paid', 'refund it automatically', 'raise the amount alert'] as const;
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
      // The acquirer's word applies whatever this server knows of the order yet. Held money (deposits) comes here as a
      // state beside `registered` (`acquirer.held` → `held`, then captured or released), so these words apply to it too.
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
        },
      },
    },
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
