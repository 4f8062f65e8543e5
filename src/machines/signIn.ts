import { assertEvent, assign, sendParent, setup } from 'xstate';
import type { AccountAnswer, CaptchaEvent, CaptchaState, LoginInput } from './accountFlow';
import { captchaFor, captchaHandlers, captchaRequestOf, isCaptchaPending, verifiedCaptcha } from './accountFlow';
import { errorOf, logErrorStub, promiseStub } from './stub';

/**
 * Why the last login came to nothing, as the server said it: the status of its refusal (401: the phone and password
 * do not match; 429: too many tries; with the robot check asked: that), or 0 when no answer came. The form words it
 * under 'Не удалось авторизоваться'.
 */
export interface SignInFailure {
  status: number;
}

export interface SignInContext extends CaptchaState {
  /** The last login was refused or failed, and why; null before any or after a new try. */
  failure: SignInFailure | null;
}

export type SignInEvent = { type: 'signIn.submit'; phone: string; password: string } | CaptchaEvent;

/**
 * The sign-in form of the account step: phone and password go to the provider's login; success tells the
 * checkout 'user.signedIn' (the app then reloads the user and the bill). A refusal shows 'Не удалось
 * авторизоваться' with its reason and, when the server asks for it, the robot check, which then must pass before the
 * next try.
 */
export const signInMachine = setup({
  types: {
    context: {} as SignInContext,
    events: {} as SignInEvent,
    tags: {} as 'busy',
  },
  actors: {
    login: promiseStub<AccountAnswer, LoginInput>('login'),
  },
  actions: {
    'log error': logErrorStub,
    'remember captcha': assign(({ event }) => verifiedCaptcha({ event })),
    'forget captcha': assign({ captcha: null }),
    'read captcha request': assign(({ context }, params: { answer: AccountAnswer }) => captchaRequestOf({ context }, params)),
    'mark failed': assign((_, params: { failure: SignInFailure }) => ({ failure: params.failure })),
    'clear failure': assign({ failure: null }),
    'tell checkout signed in': sendParent({ type: 'user.signedIn' }),
  },
  guards: {
    'is captcha pending': ({ context }) => isCaptchaPending(context),
    'is accepted': (_, params: { answer: AccountAnswer }) => params.answer.success,
  },
}).createMachine({
  id: 'signIn',
  description: 'Phone, password and captcha go to the provider login; success is told to the checkout.',
  context: { ...captchaFor('when asked'), failure: null },
  initial: 'editing',
  on: { ...captchaHandlers },
  states: {
    editing: {
      on: {
        'signIn.submit': [{ guard: 'is captcha pending' }, { target: 'signingIn', actions: 'clear failure' }],
      },
    },
    signingIn: {
      tags: 'busy',
      invoke: {
        src: 'login',
        input: ({ context, event }) => {
          assertEvent(event, 'signIn.submit');
          return { phone: event.phone, password: event.password, captcha: context.captcha };
        },
        onDone: [
          { guard: { type: 'is accepted', params: ({ event }) => ({ answer: event.output }) }, target: 'signedIn' },
          {
            target: 'editing',
            actions: [
              { type: 'log error', params: errorOf },
              { type: 'mark failed', params: ({ event }) => ({ failure: { status: event.output.status ?? 0 } }) },
              { type: 'read captcha request', params: ({ event }) => ({ answer: event.output }) },
            ],
          },
        ],
        // A token is good for one call; the next try needs a fresh check.
        onError: { target: 'editing', actions: [{ type: 'log error', params: errorOf }, { type: 'mark failed', params: { failure: { status: 0 } } }, 'forget captcha'] },
      },
    },
    signedIn: {
      description: 'Waits, busy, while the app reloads the user and the checkout shows the signed-in card.',
      tags: 'busy',
      entry: 'tell checkout signed in',
    },
  },
});
