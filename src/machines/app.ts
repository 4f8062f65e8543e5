import { assign, sendTo, setup, type ActorRefFrom, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import type { CheckoutDraft } from '../services/checkoutDraft';
import { closedAsOf, type ClosedAs } from '../services/rules/billData';
import type { Bill, LoyaltyUser, Receipt } from '../services/types';
import { checkoutMachine } from './checkout';
import { loadCodeStub } from './chunks';
import { errorOf, logErrorStub, notProvided, promiseStub } from './stub';

export interface AppInput {
  /** The bill's public link id, as the address /pay/<link> names it: the page's one name for the bill it opens. */
  billLink: string;
  isDesktop: boolean;
  /** The step the address bar showed when the page was (re)loaded: a reload resumes it when it can. */
  resumePath?: string | null;
  /** 'Попробовать снова' from the result page: the declined order whose way to pay and e-mail the bill keeps. */
  retryOrder?: string | null;
  /** This tab's draft of the checkout, for a reload on any step (services/checkoutDraft.ts). */
  draft?: CheckoutDraft | null;
  /** 'Оплатить через СБП' after a declined card: the way to pay the retry opens with (`?via=`). */
  retryWay?: string | null;
}

export interface AppContext extends Required<AppInput> {
  bill: Bill | null;
  user: LoyaltyUser | null;
  /** The bill is paid: the receipt of the payment that paid it (null: paid outside this checkout), instead of the checkout. */
  receipt: Receipt | null;
  /** The bill takes no payment any more (cancelled or expired), as the server said: the error says that, not a guess. */
  closedAs: ClosedAs | null;
}

export type AppEvent = { type: 'user.signedIn' } | { type: 'user.change' } | { type: 'code.retry' };

/**
 * The root of the page (the app shell): load the loyalty user and the bill data in parallel, then show the
 * checkout, or the data error when the bill cannot be had. After a sign-in the user is reloaded (with an
 * analytics event) and the bill refetched; 'change user' logs out and clears the user.
 */
/** The user and the bill as their loads answer them. */
const loadedUser = ({ event }: { event: DoneActorEvent<LoyaltyUser | null> }) => ({ user: event.output });
const loadedBill = ({ event }: { event: DoneActorEvent<Bill> }) => ({ bill: event.output });
const billInput = ({ context }: { context: AppContext }) => ({ billLink: context.billLink, retry: context.retryOrder });
/**
 * The server's 409 to the bill's data that says `paid` (a cancelled or expired bill's 409 does not): with the receipt of
 * the payment that paid it when the server has it.
 */
const isPaidRefusal = (error: unknown) => {
  const refusal = error as { status?: number; body?: { paid?: unknown } | null } | null;
  return refusal?.status === 409 && refusal.body?.paid === true;
};
/** What to log of the bill's refusal: a cancelled or expired bill is its state, not a fault, so nothing (null). */
const faultOf = ({ event }: { event: ErrorActorEvent }) => ({ error: closedAsOf((event.error as { body?: unknown } | null)?.body ?? null) ? null : event.error });
const paidReceiptOf = (error: unknown): Receipt | null => (error as { body?: { receipt?: Receipt } | null } | null)?.body?.receipt ?? null;

/** One load of a parallel pair (user, bill): fetching, then done (final) whatever the answer. */
function loadOnce<const Invoke>(invoke: Invoke) {
  return { initial: 'fetching' as const, states: { fetching: { invoke }, done: { type: 'final' as const } } };
}

export const appMachine = setup({
  types: {
    input: {} as AppInput,
    context: {} as AppContext,
    events: {} as AppEvent,
    tags: {} as 'loading' | 'error' | 'refreshing' | 'paid' | 'code failed',
    children: {} as { checkout: 'checkout' },
  },
  actors: {
    loadBill: promiseStub<Bill, { billLink: string; retry?: string | null }>('loadBill'),
    /** Resolves with null when nobody is signed in. */
    loadUser: promiseStub<LoyaltyUser | null>('loadUser'),
    logout: promiseStub<void>('logout'),
    /** The chunks of code asked for (machines/chunks.ts): a paid bill's receipt is one. */
    loadCode: loadCodeStub,
    checkout: checkoutMachine,
  },
  actions: {
    'show data error title': () => notProvided('show data error title'),
    'track sign-in': (_, _params: { user: LoyaltyUser | null }) => notProvided('track sign-in'),
    'log error': logErrorStub,
    'remember user': assign((_, params: { user: LoyaltyUser | null }) => params),
    'remember bill': assign((_, params: { bill: Bill }) => params),
    'forget user': assign({ user: null }),
    'remember receipt': assign((_, params: { receipt: Receipt | null }) => params),
    'remember closing': assign((_, params: { error: unknown }) => ({ closedAs: closedAsOf((params.error as { body?: unknown } | null)?.body ?? null) })),
    'tell checkout': sendTo('checkout', ({ context }) => ({ type: 'session.updated' as const, bill: context.bill!, user: context.user })),
  },
  guards: {
    'is bill paid': (_, params: { error: unknown }) => isPaidRefusal(params.error),
  },
}).createMachine({
  id: 'app',
  context: ({ input }) => ({
    ...input,
    resumePath: input.resumePath ?? null,
    retryOrder: input.retryOrder ?? null,
    retryWay: input.retryWay ?? null,
    draft: input.draft ?? null,
    bill: null,
    user: null,
    receipt: null,
    closedAs: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: 'loading',
      type: 'parallel',
      states: {
        user: loadOnce({
          src: 'loadUser',
          onDone: { target: 'done', actions: { type: 'remember user', params: loadedUser } },
          // Nobody signed in or the provider is down: the payer can still pay as a guest.
          onError: { target: 'done', actions: [{ type: 'log error', params: errorOf }, 'forget user'] },
        } as const),
        bill: loadOnce({
          src: 'loadBill',
          input: billInput,
          onDone: { target: 'done', actions: { type: 'remember bill', params: loadedBill } },
          onError: [
            // A paid bill's link shows 'Счет оплачен' with its receipt, not the data error of an unknown bill.
            {
              guard: { type: 'is bill paid', params: errorOf },
              target: '#app.paid',
              actions: { type: 'remember receipt', params: ({ event }: { event: ErrorActorEvent }) => ({ receipt: paidReceiptOf(event.error) }) },
            },
            { target: '#app.error', actions: [{ type: 'log error', params: faultOf }, { type: 'remember closing', params: errorOf }] },
          ],
        } as const),
      },
      onDone: 'content',
    },
    content: {
      invoke: {
        id: 'checkout',
        systemId: 'checkout',
        src: 'checkout',
        input: ({ context }) => ({
          bill: context.bill!,
          user: context.user,
          isDesktop: context.isDesktop,
          resumePath: context.resumePath,
          draft: context.draft,
          retryWay: context.retryWay,
        }),
      },
      initial: 'ready',
      states: {
        ready: {
          on: {
            'user.signedIn': 'refreshing',
            'user.change': 'loggingOut',
          },
        },
        refreshing: {
          tags: 'refreshing',
          type: 'parallel',
          states: {
            user: loadOnce({
              src: 'loadUser',
              onDone: { target: 'done', actions: [{ type: 'remember user', params: loadedUser }, { type: 'track sign-in', params: loadedUser }] },
              onError: { target: 'done', actions: { type: 'log error', params: errorOf } },
            } as const),
            bill: loadOnce({
              src: 'loadBill',
              input: billInput,
              onDone: { target: 'done', actions: { type: 'remember bill', params: loadedBill } },
              // Keep the bill we have: the payer is mid-way and the data was good a moment ago.
              onError: { target: 'done', actions: { type: 'log error', params: errorOf } },
            } as const),
          },
          onDone: { target: 'ready', actions: 'tell checkout' },
        },
        loggingOut: {
          tags: 'refreshing',
          invoke: {
            src: 'logout',
            onDone: { target: 'ready', actions: ['forget user', 'tell checkout'] },
            // Even when the provider fails, forget the user on this page (logs out and clears the user).
            onError: { target: 'ready', actions: [{ type: 'log error', params: errorOf }, 'forget user', 'tell checkout'] },
          },
        },
      },
    },
    paid: {
      tags: 'paid',
      description: "'Счет оплачен' with the receipt of the payment that paid the bill, once its code (a chunk of its own) is here.",
      initial: 'loading',
      states: {
        loading: { tags: 'loading', invoke: { src: 'loadCode', input: { chunks: ['paidBill'] }, onDone: 'shown', onError: 'failed' } },
        failed: { tags: 'code failed', on: { 'code.retry': 'loading' } },
        shown: {},
      },
    },
    error: {
      tags: 'error',
      entry: 'show data error title',
    },
  },
});

export type AppActor = ActorRefFrom<typeof appMachine>;
