import { sendParent, setup } from 'xstate';
import { errorOf, logErrorStub, notProvided, promiseStub } from './stub';

/** The free call is polled every 5 s and polling stops after 60 s. */
export const FREE_CALL_POLL_MS = 5000;
export const FREE_CALL_LIMIT_MS = 60_000;

export interface FreeCallInput {
  /** The phone the payer will call from. */
  phone: string;
}

/**
 * The free-call screen: the lock request tells the line to expect a call from the phone. If it says
 * true, the status is polled every 5 s and the page reloads once the call came in (the server then knows the
 * user). After 60 s polling stops and the checkout returns to the main route.
 */
export const freeCallMachine = setup({
  types: {
    input: {} as FreeCallInput,
    context: {} as FreeCallInput,
    tags: {} as 'waiting for call' | 'reloading',
  },
  actors: {
    /** Resolves with json.result of freeCallLock. */
    lockFreeCall: promiseStub<boolean, { phone: string }>('lockFreeCall'),
    /** Resolves with json.result of freeCall: true once the call came in. */
    checkFreeCall: promiseStub<boolean, { phone: string }>('checkFreeCall'),
  },
  actions: {
    'reload page': () => notProvided('reload page'),
    'log error': logErrorStub,
    'tell checkout ended': sendParent({ type: 'freeCall.ended' }),
  },
  guards: {
    'is true': (_, params: { result: boolean }) => params.result === true,
  },
  delays: {
    'free call poll interval': FREE_CALL_POLL_MS,
    'free call time limit': FREE_CALL_LIMIT_MS,
  },
}).createMachine({
  id: 'freeCall',
  description: 'Locks the free-call line for the phone, polls for the call every 5 s, gives up after 60 s.',
  context: ({ input }) => ({ phone: input.phone }),
  initial: 'locking',
  states: {
    locking: {
      invoke: {
        src: 'lockFreeCall',
        input: ({ context }) => ({ phone: context.phone }),
        onDone: [{ guard: { type: 'is true', params: ({ event }) => ({ result: event.output }) }, target: 'polling' }, { target: 'notLocked' }],
        onError: { target: 'notLocked', actions: { type: 'log error', params: errorOf } },
      },
    },
    notLocked: {
      description: 'The line did not take the lock: nothing to wait for (the line is polled only after a true lock).',
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
              { guard: { type: 'is true', params: ({ event }) => ({ result: event.output }) }, target: '#freeCall.reloading' },
              { target: 'waiting' },
            ],
            // A failed poll is logged and polling goes on until the time limit.
            onError: { target: 'waiting', actions: { type: 'log error', params: errorOf } },
          },
        },
      },
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
