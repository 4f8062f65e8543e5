import { assertEvent, assign, sendParent, setup } from 'xstate';
import type { AccountAnswer, CaptchaEvent, CaptchaState, LoginInput } from './accountFlow';
import { captchaFor, captchaHandlers, captchaRequestOf, isCaptchaPending, verifiedCaptcha } from './accountFlow';
import { errorOf, logErrorStub, promiseStub } from './stub';

export interface SignInContext extends CaptchaState {
  /** The last login was refused or failed: the form says 'Не удалось авторизоваться'. */
  failed: boolean;
}

export type SignInEvent = { type: 'signIn.submit'; phone: string; password: string } | CaptchaEvent;

/**
 * The sign-in form of the reg step: phone and password go to the provider's login; success tells the
 * checkout 'user.signedIn' (the app then reloads the user and the bill). A refusal shows 'Не удалось
 * авторизоваться' and, when the server asks for it, the robot check, which then must pass before the next try.
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
    'mark failed': assign({ failed: true }),
    'clear failure': assign({ failed: false }),
    'tell checkout signed in': sendParent({ type: 'user.signedIn' }),
  },
  guards: {
    'is captcha pending': ({ context }) => isCaptchaPending(context),
    'is accepted': (_, params: { answer: AccountAnswer }) => params.answer.success,
  },
}).createMachine({
  id: 'signIn',
  description: 'Phone, password and captcha go to the provider login; success is told to the checkout.',
  context: { ...captchaFor('when asked'), failed: false },
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
            actions: [{ type: 'log error', params: errorOf }, 'mark failed', { type: 'read captcha request', params: ({ event }) => ({ answer: event.output }) }],
          },
        ],
        // A token is good for one call; the next try needs a fresh check.
        onError: { target: 'editing', actions: [{ type: 'log error', params: errorOf }, 'mark failed', 'forget captcha'] },
      },
    },
    signedIn: {
      description: 'Waits, busy, while the app reloads the user and the checkout shows the signed-in card.',
      tags: 'busy',
      entry: 'tell checkout signed in',
    },
  },
});
