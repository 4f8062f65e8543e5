import { assign, setup, type ActorRefFrom } from 'xstate';
import type { Platform } from '../services/environment';
import { orderBanks, type SbpBank } from '../services/sbpBanks';
import { notProvided, promiseStub } from './stub';

export interface BankChoiceInput {
  /** The bank this browser paid with last (kept on the device), or null. */
  lastUsedBankId: string | null;
  /** Which links open a bank's app here (an environment fact, like isDesktop). */
  platform: Platform;
}

export interface BankChoiceContext extends BankChoiceInput {
  /** The banks in the payer's order: last used, the six most used, then by name. */
  banks: SbpBank[];
}

export type BankChoiceEvent = { type: 'bank.choose'; id: string };

/**
 * The bank list of the fast-payment step. It lives in that step's chunk, not in the checkout: its actor is
 * created with its real effects where the step mounts the list (src/bankListWiring.ts), so neither the list nor its
 * code is in the first JS. The payer's search is view state, like the QR toggle; the machine holds what was loaded and
 * remembers the bank the payer taps.
 */
export const bankChoiceMachine = setup({
  types: {
    input: {} as BankChoiceInput,
    context: {} as BankChoiceContext,
    events: {} as BankChoiceEvent,
    tags: {} as 'loading' | 'list' | 'unavailable',
  },
  actors: {
    /** GET /api/sbp-banks, the well-formed banks of its answer. */
    loadBanks: promiseStub<SbpBank[]>('loadBanks'),
  },
  actions: {
    /** Keeps the tapped bank on this device, so it leads the list on the next payment. */
    'remember bank': (_, _params: { id: string }) => notProvided('remember bank'),
    'log error': (_, _params: { error: unknown }) => notProvided('log error'),
  },
  guards: {
    'has banks': (_, params: { banks: SbpBank[] }) => params.banks.length > 0,
  },
}).createMachine({
  id: 'bankChoice',
  description: 'The banks to open the payment in; without a list the step keeps the plain bank-app link and the QR.',
  context: ({ input }) => ({ ...input, banks: [] }),
  initial: 'loading',
  states: {
    loading: {
      tags: 'loading',
      invoke: {
        src: 'loadBanks',
        onDone: [
          {
            guard: { type: 'has banks', params: ({ event }) => ({ banks: event.output }) },
            target: 'shown',
            actions: assign({ banks: ({ context, event }) => orderBanks(event.output, context.lastUsedBankId) }),
          },
          { target: 'unavailable' },
        ],
        onError: { target: 'unavailable', actions: { type: 'log error', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    shown: {
      tags: 'list',
      on: { 'bank.choose': { actions: { type: 'remember bank', params: ({ event }) => ({ id: event.id }) } } },
    },
    unavailable: {
      tags: 'unavailable',
      description: 'The list could not be loaded or was empty: the payload link and the QR remain.',
    },
  },
});

export type BankChoiceActor = ActorRefFrom<typeof bankChoiceMachine>;
