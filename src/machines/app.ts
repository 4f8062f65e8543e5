import { assign, sendTo, setup, type ActorRefFrom } from 'xstate';
import type { Bill, LoyaltyUser } from '../services/types';
import { checkoutMachine } from './checkout';
import { errorOf, logErrorStub, notProvided, promiseStub } from './stub';

export interface AppInput {
  objectOID: string;
  isDesktop: boolean;
}

export interface AppContext extends AppInput {
  bill: Bill | null;
  user: LoyaltyUser | null;
}

export type AppEvent = { type: 'user.signedIn' } | { type: 'user.change' };

/**
 * The root of the page (SPEC §2 app shell): load the loyalty user and the bill data in parallel, then show the
 * checkout, or the data error when the bill cannot be had. After a sign-in the user is reloaded (with an
 * analytics event) and the bill refetched; 'change user' logs out and clears the user.
 */
export const appMachine = setup({
  types: {
    input: {} as AppInput,
    context: {} as AppContext,
    events: {} as AppEvent,
    tags: {} as 'loading' | 'error' | 'refreshing',
    children: {} as { checkout: 'checkout' },
  },
  actors: {
    loadBill: promiseStub<Bill, { objectOID: string }>('loadBill'),
    /** Resolves with null when nobody is signed in. */
    loadUser: promiseStub<LoyaltyUser | null>('loadUser'),
    logout: promiseStub<void>('logout'),
    checkout: checkoutMachine,
  },
  actions: {
    'show data error title': () => notProvided('show data error title'),
    'track sign-in': (_, _params: { user: LoyaltyUser | null }) => notProvided('track sign-in'),
    'log error': logErrorStub,
    'tell checkout': sendTo('checkout', ({ context }) => ({ type: 'session.updated' as const, bill: context.bill!, user: context.user })),
  },
}).createMachine({
  id: 'app',
  context: ({ input }) => ({ ...input, bill: null, user: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: 'loading',
      type: 'parallel',
      states: {
        user: {
          initial: 'fetching',
          states: {
            fetching: {
              invoke: {
                src: 'loadUser',
                onDone: { target: 'done', actions: assign({ user: ({ event }) => event.output }) },
                // Nobody signed in or the provider is down: the payer can still pay as a guest.
                onError: { target: 'done', actions: [{ type: 'log error', params: errorOf }, assign({ user: null })] },
              },
            },
            done: { type: 'final' },
          },
        },
        bill: {
          initial: 'fetching',
          states: {
            fetching: {
              invoke: {
                src: 'loadBill',
                input: ({ context }) => ({ objectOID: context.objectOID }),
                onDone: { target: 'done', actions: assign({ bill: ({ event }) => event.output }) },
                onError: { target: '#app.error', actions: { type: 'log error', params: errorOf } },
              },
            },
            done: { type: 'final' },
          },
        },
      },
      onDone: 'content',
    },
    content: {
      invoke: {
        id: 'checkout',
        systemId: 'checkout',
        src: 'checkout',
        input: ({ context }) => ({ bill: context.bill!, user: context.user, isDesktop: context.isDesktop }),
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
            user: {
              initial: 'fetching',
              states: {
                fetching: {
                  invoke: {
                    src: 'loadUser',
                    onDone: {
                      target: 'done',
                      actions: [assign({ user: ({ event }) => event.output }), { type: 'track sign-in', params: ({ event }) => ({ user: event.output }) }],
                    },
                    onError: { target: 'done', actions: { type: 'log error', params: errorOf } },
                  },
                },
                done: { type: 'final' },
              },
            },
            bill: {
              initial: 'fetching',
              states: {
                fetching: {
                  invoke: {
                    src: 'loadBill',
                    input: ({ context }) => ({ objectOID: context.objectOID }),
                    onDone: { target: 'done', actions: assign({ bill: ({ event }) => event.output }) },
                    // Keep the bill we have: the payer is mid-way and the data was good a moment ago.
                    onError: { target: 'done', actions: { type: 'log error', params: errorOf } },
                  },
                },
                done: { type: 'final' },
              },
            },
          },
          onDone: { target: 'ready', actions: 'tell checkout' },
        },
        loggingOut: {
          tags: 'refreshing',
          invoke: {
            src: 'logout',
            onDone: { target: 'ready', actions: [assign({ user: null }), 'tell checkout'] },
            // Even when the provider fails, forget the user on this page (SPEC §2: logs out and clears the user).
            onError: {
              target: 'ready',
              actions: [{ type: 'log error', params: errorOf }, assign({ user: null }), 'tell checkout'],
            },
          },
        },
      },
    },
    error: {
      tags: 'error',
      entry: 'show data error title',
    },
  },
});

export type AppActor = ActorRefFrom<typeof appMachine>;
