import { assign, sendParent, setup, type ActorRefFrom } from 'xstate';
import { errorOf, logErrorStub, promiseStub } from '../../machines/stub';
import { problemOf, type DeskProblem } from '../services/http';
import type { BillsAnswer, BillsQuery, BillStatus } from '../services/types';

export interface BillsListContext {
  query: BillsQuery;
  answer: BillsAnswer | null;
  problem: DeskProblem | null;
}

export type BillsListEvent =
  | { type: 'bills.search'; q: string }
  | { type: 'bills.toggleStatus'; status: BillStatus }
  | { type: 'bills.page'; page: number }
  | { type: 'retry' };

/**
 * The bills list: a search, status filters and a page; each change asks the server again (newest first). The desk
 * keeps the last query (`bills.remembered`), so coming back from a bill finds the list as it was.
 */
export const billsListMachine = setup({
  types: {
    context: {} as BillsListContext,
    events: {} as BillsListEvent,
    input: {} as { query: BillsQuery },
    tags: {} as 'busy' | 'failed',
  },
  actors: {
    'load bills': promiseStub<BillsAnswer, BillsQuery>('load bills'),
  },
  actions: {
    'log error': logErrorStub,
    'set search': assign(({ context }, params: { q: string }) => ({ query: { ...context.query, q: params.q.trim(), page: 1 } })),
    'toggle status': assign(({ context }, params: { status: BillStatus }) => {
      const has = context.query.statuses.includes(params.status);
      return { query: { ...context.query, page: 1, statuses: has ? context.query.statuses.filter((s) => s !== params.status) : [...context.query.statuses, params.status] } };
    }),
    'set page': assign(({ context }, params: { page: number }) => ({ query: { ...context.query, page: params.page } })),
    'keep answer': assign((_, params: { answer: BillsAnswer }) => ({ answer: params.answer, problem: null })),
    'remember problem': assign((_, params: { error: unknown }) => ({ problem: problemOf(params.error) })),
    'tell desk the query': sendParent(({ context }) => ({ type: 'bills.remembered', query: context.query })),
  },
}).createMachine({
  id: 'billsList',
  context: ({ input }) => ({ query: input.query, answer: null, problem: null }),
  initial: 'loading',
  on: {
    'bills.search': { target: '.loading', actions: { type: 'set search', params: ({ event }) => ({ q: event.q }) } },
    'bills.toggleStatus': { target: '.loading', actions: { type: 'toggle status', params: ({ event }) => ({ status: event.status }) } },
    'bills.page': { target: '.loading', actions: { type: 'set page', params: ({ event }) => ({ page: event.page }) } },
  },
  states: {
    loading: {
      tags: 'busy',
      entry: 'tell desk the query',
      invoke: {
        src: 'load bills',
        input: ({ context }) => context.query,
        onDone: { target: 'ready', actions: { type: 'keep answer', params: ({ event }) => ({ answer: event.output }) } },
        onError: { target: 'failed', actions: [{ type: 'log error', params: errorOf }, { type: 'remember problem', params: ({ event }) => ({ error: event.error }) }] },
      },
    },
    ready: {},
    failed: { tags: 'failed', on: { retry: 'loading' } },
  },
});

export type BillsListActor = ActorRefFrom<typeof billsListMachine>;
