import { assign, setup, type ActorRefFrom } from 'xstate';
import { errorOf, logErrorStub, promiseStub } from '../../machines/stub';
import { problemOf, type DeskProblem } from '../services/http';
import type { AuditAnswer } from '../services/types';

export interface AuditContext {
  page: number;
  answer: AuditAnswer | null;
  problem: DeskProblem | null;
}

/** The audit log, a page at a time, newest first. */
export const auditMachine = setup({
  types: { context: {} as AuditContext, events: {} as { type: 'audit.page'; page: number } | { type: 'retry' }, tags: {} as 'busy' | 'failed' },
  actors: { 'load audit': promiseStub<AuditAnswer, number>('load audit') },
  actions: {
    'log error': logErrorStub,
    'set page': assign((_, params: { page: number }) => ({ page: params.page })),
    'keep answer': assign((_, params: { answer: AuditAnswer }) => ({ answer: params.answer, problem: null })),
    'remember problem': assign((_, params: { error: unknown }) => ({ problem: problemOf(params.error) })),
  },
}).createMachine({
  id: 'audit',
  context: { page: 1, answer: null, problem: null },
  initial: 'loading',
  on: { 'audit.page': { target: '.loading', actions: { type: 'set page', params: ({ event }) => ({ page: event.page }) } } },
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        src: 'load audit',
        input: ({ context }) => context.page,
        onDone: { target: 'ready', actions: { type: 'keep answer', params: ({ event }) => ({ answer: event.output }) } },
        onError: { target: 'failed', actions: [{ type: 'log error', params: errorOf }, { type: 'remember problem', params: ({ event }) => ({ error: event.error }) }] },
      },
    },
    ready: {},
    failed: { tags: 'failed', on: { retry: 'loading' } },
  },
});

export type AuditActor = ActorRefFrom<typeof auditMachine>;
