import { assertEvent, assign, setup, type ActorRefFrom } from 'xstate';
import { errorOf, logErrorStub, promiseStub } from '../../machines/stub';
import { problemOf, type DeskProblem } from '../services/http';
import type { SessionAnswer } from '../services/types';

export interface SignInContext {
  /** Why the last try came to nothing (wrong password, locked, a stale page, no answer); null before any. */
  problem: DeskProblem | null;
  /** The server's answer once signed in: the flow's output. */
  answer: SessionAnswer | null;
}

export type SignInEvent = { type: 'signIn.submit'; email: string; password: string };

/**
 * The desk's sign-in form: e-mail and password go to the server; a signed-in answer ends the flow with it (the desk
 * then opens, or first asks for a new password). A refusal stays on the form and says why.
 */
export const signInMachine = setup({
  types: {
    context: {} as SignInContext,
    events: {} as SignInEvent,
    output: {} as SessionAnswer,
    tags: {} as 'busy',
  },
  actors: {
    'sign in': promiseStub<SessionAnswer, { email: string; password: string }>('sign in'),
  },
  actions: {
    'log error': logErrorStub,
    'remember problem': assign((_, params: { error: unknown }) => ({ problem: problemOf(params.error) })),
    'forget problem': assign({ problem: null }),
    'keep answer': assign((_, params: { answer: SessionAnswer }) => ({ answer: params.answer })),
  },
}).createMachine({
  id: 'signIn',
  description: 'E-mail and password to the server; a refusal says why, and the form stays.',
  context: { problem: null, answer: null },
  initial: 'editing',
  states: {
    editing: {
      on: { 'signIn.submit': { target: 'signingIn', actions: 'forget problem' } },
    },
    signingIn: {
      tags: 'busy',
      invoke: {
        src: 'sign in',
        input: ({ event }) => {
          assertEvent(event, 'signIn.submit');
          return { email: event.email, password: event.password };
        },
        onDone: { target: 'signedIn', actions: { type: 'keep answer', params: ({ event }) => ({ answer: event.output }) } },
        onError: { target: 'editing', actions: [{ type: 'log error', params: errorOf }, { type: 'remember problem', params: ({ event }) => ({ error: event.error }) }] },
      },
    },
    signedIn: { type: 'final', tags: 'busy' },
  },
  output: ({ context }) => context.answer!,
});

export type SignInActor = ActorRefFrom<typeof signInMachine>;
