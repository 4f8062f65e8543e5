import { assertEvent, assign, setup, type ActorRefFrom } from 'xstate';
import { errorOf, logErrorStub, promiseStub } from '../../machines/stub';
import { problemOf, type DeskProblem } from '../services/http';
import type { SessionAnswer } from '../services/types';

export interface PasswordChangeContext {
  problem: DeskProblem | null;
  answer: SessionAnswer | null;
}

export type PasswordChangeEvent = { type: 'password.submit'; current: string; password: string };

/**
 * Setting one's own password: after a sign-in with a one-time password the desk asks for it before anything else.
 * The server checks the current one and the new one's rules; a refusal stays on the form with its fields.
 */
export const passwordChangeMachine = setup({
  types: {
    context: {} as PasswordChangeContext,
    events: {} as PasswordChangeEvent,
    output: {} as SessionAnswer,
    tags: {} as 'busy',
  },
  actors: {
    'change password': promiseStub<SessionAnswer, { current: string; password: string }>('change password'),
  },
  actions: {
    'log error': logErrorStub,
    'remember problem': assign((_, params: { error: unknown }) => ({ problem: problemOf(params.error) })),
    'forget problem': assign({ problem: null }),
    'keep answer': assign((_, params: { answer: SessionAnswer }) => ({ answer: params.answer })),
  },
}).createMachine({
  id: 'passwordChange',
  context: { problem: null, answer: null },
  initial: 'editing',
  states: {
    editing: { on: { 'password.submit': { target: 'saving', actions: 'forget problem' } } },
    saving: {
      tags: 'busy',
      invoke: {
        src: 'change password',
        input: ({ event }) => {
          assertEvent(event, 'password.submit');
          return { current: event.current, password: event.password };
        },
        onDone: { target: 'saved', actions: { type: 'keep answer', params: ({ event }) => ({ answer: event.output }) } },
        onError: { target: 'editing', actions: [{ type: 'log error', params: errorOf }, { type: 'remember problem', params: ({ event }) => ({ error: event.error }) }] },
      },
    },
    saved: { type: 'final', tags: 'busy' },
  },
  output: ({ context }) => context.answer!,
});

export type PasswordChangeActor = ActorRefFrom<typeof passwordChangeMachine>;
