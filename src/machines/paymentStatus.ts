import { assign, setup } from 'xstate';
import type { Hold, PaymentStatusResponse, Receipt } from '../services/types';
import { callbackStub, notProvided, promiseStub } from './stub';

export interface PaymentStatusInput {
  transactionID: string;
  billOID: string;
  /**
   * Keep polling while the tab is hidden: a phone payer is in the bank app then, and the page should know the
   * outcome when they come back. Elsewhere a hidden tab pauses polling.
   */
  keepPollingWhenHidden?: boolean;
}

export interface PaymentStatusContext extends PaymentStatusInput {
  status: PaymentStatusResponse['status'];
  /**
   * The money is held on the card (a bill the merchant captures by hand): the amount and until when. Polling goes on,
   * since the merchant's capture (the receipt) or release is what the payer waits for.
   */
  hold: Hold | null;
  /** Failed polls in a row; from the second on, each lengthens the pause before the next (logged, no message). */
  failures: number;
  /** The tab is hidden: finish the request in flight, then wait for the tab to be shown. */
  hidden: boolean;
  /** The server has answered a poll: the status is known, if only as 'created' (no 'Получаем данные…' before). */
  answered: boolean;
  /** The browser says it has no connection: wait for it to come back rather than poll into nothing. */
  offline: boolean;
  /** How polling ended, for the parent (set on entering a final state). */
  outcome: PaymentStatusOutput['status'];
  /** The server's receipt of the settled payment. */
  receipt: Receipt | null;
  /**
   * Two minutes and the bank has not confirmed: the page says so honestly and asks at a slower pace,
   * never a spinner for ever.
   */
  slow: boolean;
}

export type PaymentStatusEvent =
  | { type: 'visibility.hidden' }
  | { type: 'visibility.visible' }
  | { type: 'connection.offline' }
  | { type: 'connection.online' };

export type PaymentStatusOutput = { status: 'success' | 'declined' | 'refunded' | 'released' | 'order not found' | 'document not found' };

/** The status is asked every 5 s; after repeated failures the pause doubles up to a minute. */
export const STATUS_POLL_MS = 5000;
export const MAX_RETRY_PAUSE_MS = 60_000;
/** After this long still 'created', the bank is slow: say so, and ask every SLOW_POLL_MS instead. */
export const SLOW_AFTER_MS = 120_000;
export const SLOW_POLL_MS = 15_000;

/**
 * Payment-status polling: ask for the status, wait 5000 ms, ask again, until success or declined.
 * One request at a time; polling pauses while the tab is hidden and resumes at once when it is shown. Without a
 * connection it waits, saying so, and asks at once when the connection is back.
 */
export const paymentStatusMachine = setup({
  types: {
    input: {} as PaymentStatusInput,
    context: {} as PaymentStatusContext,
    events: {} as PaymentStatusEvent,
    output: {} as PaymentStatusOutput,
    tags: {} as 'created' | 'offline' | 'success' | 'declined' | 'refunded' | 'released' | 'order not found' | 'document not found',
  },
  actors: {
    fetchStatus: promiseStub<PaymentStatusResponse, PaymentStatusInput>('fetchStatus'),
    watchVisibility: callbackStub('watchVisibility'),
    /** Reports 'connection.offline' (at once, when it starts offline) and 'connection.online'. */
    watchConnection: callbackStub('watchConnection'),
  },
  actions: {
    'log poll failure': (_, _params: { error: unknown }) => notProvided('log poll failure'),
  },
  guards: {
    'is status': (_, params: { response: PaymentStatusResponse; status: NonNullable<PaymentStatusResponse['status']> }) => params.response.status === params.status,
    'has no order': (_, params: { response: PaymentStatusResponse }) => !params.response.objectOID,
    'is document missing': (_, params: { error: unknown }) => (params.error as { status?: number } | null)?.status === 404,
    'was tab hidden': ({ context }) => context.hidden,
    /** Hidden, and this poll waits for the tab (the fast-payment step on a phone keeps polling instead). */
    'pauses for the hidden tab': ({ context }) => context.hidden && !context.keepPollingWhenHidden,
    'is offline': ({ context }) => context.offline,
  },
  delays: {
    // A hold waits for the merchant (hours, days): asked about at the slow pace, as a slow bank is.
    'status poll interval': ({ context }) => (context.slow || context.hold ? SLOW_POLL_MS : STATUS_POLL_MS),
    'slow confirmation': SLOW_AFTER_MS,
    // One failure keeps the usual pace; repeated failures double the pause (5, 10, 20, 40 s, then a minute).
    'retry pause': ({ context }) => Math.min(STATUS_POLL_MS * 2 ** Math.max(0, context.failures - 1), MAX_RETRY_PAUSE_MS),
  },
}).createMachine({
  id: 'paymentStatus',
  description: 'Polls /api/getResult/ every 5000 ms until the payment is success, declined, refunded or released (a hold lets go).',
  context: ({ input }) => ({
    ...input,
    keepPollingWhenHidden: input.keepPollingWhenHidden ?? false,
    status: null,
    hold: null,
    failures: 0,
    hidden: false,
    offline: false,
    answered: false,
    outcome: 'declined',
    receipt: null,
    slow: false,
  }),
  invoke: [{ src: 'watchVisibility' }, { src: 'watchConnection' }],
  // Counted from the start of polling; a final state stops the machine and with it this timer.
  after: { 'slow confirmation': { actions: assign({ slow: true }) } },
  on: {
    'visibility.hidden': { actions: assign({ hidden: true }) },
    'visibility.visible': { actions: assign({ hidden: false }) },
    'connection.offline': { actions: assign({ offline: true }) },
    'connection.online': { actions: assign({ offline: false }) },
  },
  initial: 'checking',
  states: {
    checking: {
      tags: 'created',
      invoke: {
        src: 'fetchStatus',
        input: ({ context }) => ({ transactionID: context.transactionID, billOID: context.billOID }),
        onDone: [
          {
            guard: { type: 'has no order', params: ({ event }) => ({ response: event.output }) },
            target: 'orderNotFound',
            actions: assign({ outcome: 'order not found' as const }),
          },
          {
            guard: { type: 'is status', params: ({ event }) => ({ response: event.output, status: 'success' as const }) },
            target: 'success',
            actions: assign({ status: 'success' as const, outcome: 'success' as const, failures: 0, receipt: ({ event }) => event.output.receipt ?? null }),
          },
          {
            guard: { type: 'is status', params: ({ event }) => ({ response: event.output, status: 'declined' as const }) },
            target: 'declined',
            actions: assign({ status: 'declined' as const, outcome: 'declined' as const, failures: 0, receipt: ({ event }) => event.output.receipt ?? null }),
          },
          {
            // Paid twice (another tab, another way): the bill was paid by the other payment and this one's money returned.
            guard: { type: 'is status', params: ({ event }) => ({ response: event.output, status: 'refunded' as const }) },
            target: 'refunded',
            // Its receipt says how much goes back, and where (the card, or the account a fast payment came from).
            actions: assign({ status: 'refunded' as const, outcome: 'refunded' as const, failures: 0, receipt: ({ event }) => event.output.receipt ?? null }),
          },
          {
            // Held, not paid: the merchant will capture it (then 'success', with the receipt) or release it.
            guard: { type: 'is status', params: ({ event }) => ({ response: event.output, status: 'held' as const }) },
            target: 'waiting',
            actions: assign({ status: 'held' as const, hold: ({ event }) => event.output.hold ?? null, failures: 0, answered: true }),
          },
          {
            // The hold was let go: nothing was taken.
            guard: { type: 'is status', params: ({ event }) => ({ response: event.output, status: 'released' as const }) },
            target: 'released',
            actions: assign({ status: 'released' as const, outcome: 'released' as const, hold: null, failures: 0 }),
          },
          {
            target: 'waiting',
            actions: assign({ status: ({ event }) => event.output.status, failures: 0, answered: true }),
          },
        ],
        onError: [
          {
            guard: { type: 'is document missing', params: ({ event }) => ({ error: event.error }) },
            target: 'documentNotFound',
            actions: assign({ outcome: 'document not found' as const }),
          },
          {
            target: 'retrying',
            actions: [
              { type: 'log poll failure', params: ({ event }) => ({ error: event.error }) },
              assign({ failures: ({ context }) => context.failures + 1 }),
            ],
          },
        ],
      },
    },
    waiting: {
      tags: 'created',
      always: [
        { guard: 'is offline', target: 'offline' },
        { guard: 'pauses for the hidden tab', target: 'paused' },
      ],
      after: { 'status poll interval': 'checking' },
      // Back from the bank app: a phone may have frozen the page and its timer while it was hidden, so ask at once.
      on: { 'visibility.visible': { guard: 'was tab hidden', target: 'checking', actions: assign({ hidden: false }) } },
    },
    retrying: {
      tags: 'created',
      always: [
        { guard: 'is offline', target: 'offline' },
        { guard: 'pauses for the hidden tab', target: 'paused' },
      ],
      after: { 'retry pause': 'checking' },
      on: { 'visibility.visible': { guard: 'was tab hidden', target: 'checking', actions: assign({ hidden: false }) } },
    },
    paused: {
      tags: 'created',
      description: 'The tab is hidden: no polls until it is shown again.',
      on: { 'visibility.visible': { target: 'checking', actions: assign({ hidden: false }) } },
    },
    offline: {
      tags: ['created', 'offline'],
      description: "No connection: 'Нет соединения — проверим, как только оно появится'; back online, ask at once.",
      on: { 'connection.online': { target: 'checking', actions: assign({ offline: false }) } },
    },
    success: { type: 'final', tags: 'success' },
    declined: { type: 'final', tags: 'declined' },
    refunded: { type: 'final', tags: 'refunded' },
    released: { type: 'final', tags: 'released', description: "The hold on the card was let go: 'Блокировка снята'." },
    orderNotFound: { type: 'final', tags: 'order not found' },
    documentNotFound: { type: 'final', tags: 'document not found' },
  },
  output: ({ context }) => ({ status: context.outcome }),
});
