import { assign, setup, type ActorRefFrom } from 'xstate';
import { errorOf, logErrorStub, promiseStub } from '../../machines/stub';
import { problemOf, type DeskProblem } from '../services/http';
import type { Figures } from '../services/types';

export interface PaymentsContext {
  figures: Figures | null;
  problem: DeskProblem | null;
}

/** The payments' figures: today, this week, this month, the last 30 days. The exports are links the browser saves. */
export const paymentsMachine = setup({
  types: { context: {} as PaymentsContext, events: {} as { type: 'retry' } | { type: 'reload' }, tags: {} as 'busy' | 'failed' },
  actors: { 'load figures': promiseStub<Figures>('load figures') },
  actions: {
    'log error': logErrorStub,
    'keep figures': assign((_, params: { figures: Figures }) => ({ figures: params.figures, problem: null })),
    'remember problem': assign((_, params: { error: unknown }) => ({ problem: problemOf(params.error) })),
  },
}).createMachine({
  id: 'payments',
  context: { figures: null, problem: null },
  initial: 'loading',
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        src: 'load figures',
        onDone: { target: 'ready', actions: { type: 'keep figures', params: ({ event }) => ({ figures: event.output }) } },
        onError: { target: 'failed', actions: [{ type: 'log error', params: errorOf }, { type: 'remember problem', params: ({ event }) => ({ error: event.error }) }] },
      },
    },
    ready: { on: { reload: 'loading' } },
    failed: { tags: 'failed', on: { retry: 'loading' } },
  },
});

export type PaymentsActor = ActorRefFrom<typeof paymentsMachine>;
