import { assign, sendParent, setup } from 'xstate';
import type { FreeCallNumber, FreeCallState } from '../services/types';
import { errorOf, logErrorStub, notProvided, promiseStub } from './stub';

/** The free call is polled every 5 s and polling stops after 60 s. */
export const FREE_CALL_POLL_MS = 5000;
export const FREE_CALL_LIMIT_MS = 60_000;

export interface FreeCallInput {
  /** The phone the payer will call from. */
  phone: string;
}

export interface FreeCallContext extends FreeCallInput {
  /** The number to call, as the provider gave it for this page's check; null until then. */
  number: FreeCallNumber | null;
}

/**
 * The free-call screen: the lock starts a call check at the provider for the phone and answers the number to call.
 * Given one, the check is polled every 5 s and the page reloads once the call came in (the server then knows the
 * user). The check ending, or 60 s without the call, ends polling and the checkout returns to the main route. A call
 * that another page waited for as well signs in neither: this page asks the payer to start again.
 */
export const freeCallMachine = setup({
  types: {
    input: {} as FreeCallInput,
    context: {} as FreeCallContext,
    events: {} as { type: 'freeCall.restart' },
    tags: {} as 'getting number' | 'waiting for call' | 'reloading' | 'not locked' | 'start again',
  },
  actors: {
    /** Resolves with the number freeCallLock answered, or null when it took no lock. */
    lockFreeCall: promiseStub<FreeCallNumber | null, { phone: string }>('lockFreeCall'),
    /** Resolves with where the check stands (freeCall's answer). */
    checkFreeCall: promiseStub<FreeCallState, { phone: string }>('checkFreeCall'),
  },
  actions: {
    'reload page': () => notProvided('reload page'),
    'log error': logErrorStub,
    'tell checkout ended': sendParent({ type: 'freeCall.ended' }),
    'remember number': assign((_, params: { number: FreeCallNumber | null }) => ({ number: params.number })),
    'forget number': assign({ number: null }),
  },
  guards: {
    'has number': (_, params: { number: FreeCallNumber | null }) => params.number !== null,
    'is state': (_, params: { state: FreeCallState; expected: FreeCallState }) => params.state === params.expected,
  },
  delays: {
    'free call poll interval': FREE_CALL_POLL_MS,
    'free call time limit': FREE_CALL_LIMIT_MS,
  },
}).createMachine({
  id: 'freeCall',
  description: 'Starts a call check for the phone, shows its number, polls it every 5 s, gives up after 60 s.',
  context: ({ input }) => ({ phone: input.phone, number: null }),
  initial: 'locking',
  states: {
    locking: {
      tags: 'getting number',
      entry: 'forget number',
      invoke: {
        src: 'lockFreeCall',
        input: ({ context }) => ({ phone: context.phone }),
        onDone: [
          {
            guard: { type: 'has number', params: ({ event }) => ({ number: event.output }) },
            target: 'polling',
            actions: { type: 'remember number', params: ({ event }) => ({ number: event.output }) },
          },
          { target: 'notLocked' },
        ],
        onError: { target: 'notLocked', actions: { type: 'log error', params: errorOf } },
      },
    },
    notLocked: {
      tags: 'not locked',
      description: 'No check was started: there is no number to call and nothing to wait for.',
    },
    polling: {
      tags: 'waiting for call',
      after: { 'free call time limit': 'ended' },
      initial: 'waiting',
      states: {
        waiting: {
          after: { 'free call poll interval': 'checking' },
        },
        checking: {
          invoke: {
            src: 'checkFreeCall',
            input: ({ context }) => ({ phone: context.phone }),
            onDone: [
              { guard: { type: 'is state', params: ({ event }) => ({ state: event.output, expected: 'confirmed' }) }, target: '#freeCall.reloading' },
              { guard: { type: 'is state', params: ({ event }) => ({ state: event.output, expected: 'ended' }) }, target: '#freeCall.ended' },
              { guard: { type: 'is state', params: ({ event }) => ({ state: event.output, expected: 'conflict' }) }, target: '#freeCall.startAgain' },
              { target: 'waiting' },
            ],
            // A failed poll is logged and polling goes on until the time limit.
            onError: { target: 'waiting', actions: { type: 'log error', params: errorOf } },
          },
        },
      },
    },
    startAgain: {
      tags: 'start again',
      description: 'The call may have been for another page waiting for the same phone and number: nobody was signed in.',
      on: { 'freeCall.restart': 'locking' },
    },
    reloading: {
      tags: 'reloading',
      entry: 'reload page',
    },
    ended: {
      entry: 'tell checkout ended',
    },
  },
});
