import { assertEvent, assign, sendParent, setup } from 'xstate';
import { messages } from '../services/messages';
import type { AccountAnswer, CaptchaEvent, CaptchaState, LoginInput } from './accountFlow';
import { captchaHandlers, isCaptchaPending, verifiedCaptcha } from './accountFlow';
import type { StepFlowInput } from './checkout';
import { notProvided, promiseStub } from './stub';

export interface SignInContext extends CaptchaState {
  /** 'Не удалось авторизоваться' after a refused or failed login. */
  error: string | null;
}

export type SignInEvent = { type: 'signIn.submit'; phone: string; password: string } | CaptchaEvent;

/**
 * The sign-in form of the reg step (SPEC §2): phone and password go to the provider's login; success tells the
 * checkout 'user.signedIn' (the app then reloads the user and the bill). A refusal shows 'Не удалось
 * авторизоваться' and, when the server asks for it, the robot check, which then must pass before the next try.
 */
export const signInMachine = setup({
  types: {
    input: {} as StepFlowInput,
    context: {} as SignInContext,
    events: {} as SignInEvent,
    tags: {} as 'busy',
  },
  actors: {
    login: promiseStub<AccountAnswer, LoginInput>('login'),
  },
  actions: {
    'log error': (_, _params: { error: unknown }) => notProvided('log error'),
    'remember captcha': assign(verifiedCaptcha),
    'forget captcha': assign({ captcha: null }),
    'show failure': assign((_, params: { showCaptcha: boolean }) => ({
      error: messages.signIn.failed,
      showCaptcha: params.showCaptcha,
      // A token is good for one call; the next try needs a fresh check.
      captcha: null,
    })),
    'tell checkout signed in': sendParent({ type: 'user.signedIn' }),
  },
  guards: {
    'is captcha pending': ({ context }) => isCaptchaPending(context),
    'is accepted': (_, params: { answer: AccountAnswer }) => params.answer.success,
  },
}).createMachine({
  id: 'signIn',
  description: 'Phone, password and captcha go to the provider login; success is told to the checkout.',
  context: { showCaptcha: false, captcha: null, error: null },
  initial: 'editing',
  on: { ...captchaHandlers },
  states: {
    editing: {
      on: {
        'signIn.submit': [
          { guard: 'is captcha pending' },
          { target: 'signingIn', actions: assign({ error: null }) },
        ],
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
              { type: 'log error', params: ({ event }) => ({ error: event.output.error }) },
              { type: 'show failure', params: ({ event }) => ({ showCaptcha: event.output.showCaptcha }) },
            ],
          },
        ],
        onError: {
          target: 'editing',
          actions: [
            { type: 'log error', params: ({ event }) => ({ error: event.error }) },
            { type: 'show failure', params: ({ context }) => ({ showCaptcha: context.showCaptcha }) },
          ],
        },
      },
    },
    signedIn: {
      description: 'Waits, busy, while the app reloads the user and the checkout shows the signed-in card.',
      tags: 'busy',
      entry: 'tell checkout signed in',
    },
  },
});
