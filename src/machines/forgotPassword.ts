import { assertEvent, assign, sendParent, setup } from 'xstate';
import type { AccountAnswer, CaptchaEvent, CaptchaState, SendCodeInput } from './accountFlow';
import { captchaHandlers, isCaptchaPending, sendRefusalText, verifiedCaptcha } from './accountFlow';
import type { StepFlowInput } from './checkout';
import { notProvided, promiseStub } from './stub';

export interface ForgotPasswordContext extends CaptchaState {
  /** Why no code went out (the server refused or failed), shown above Continue; null while none. */
  error: string | null;
  objectOID: string;
  /** The phone the code went to, for the code screen. */
  phone: string;
}

export type ForgotPasswordEvent = { type: 'forgotPassword.submit'; phone: string } | CaptchaEvent;

/**
 * Forgot password (SPEC §4): after the robot check, a forgot-password code is sent to the phone; on success the
 * checkout goes to checkSendCode with check type forgot-password (the checkout reset points-to-use on entry).
 */
export const forgotPasswordMachine = setup({
  types: {
    input: {} as StepFlowInput,
    context: {} as ForgotPasswordContext,
    events: {} as ForgotPasswordEvent,
    tags: {} as 'busy',
  },
  actors: {
    sendCode: promiseStub<AccountAnswer, SendCodeInput>('sendCode'),
  },
  actions: {
    'log error': (_, _params: { error: unknown }) => notProvided('log error'),
    'remember captcha': assign(verifiedCaptcha),
    'forget captcha': assign({ captcha: null }),
    // The payer must learn why nothing came.
    'show send refusal': assign((_, params: { secondsLeft: number | null }) => ({ error: sendRefusalText(params.secondsLeft) })),
    'clear error': assign({ error: null }),
    'remember phone': assign(({ event }) => {
      assertEvent(event, 'forgotPassword.submit');
      return { phone: event.phone };
    }),
    'ask for the code': sendParent(({ context }) => ({ type: 'code.required' as const, checkType: 'forgot-password' as const, phone: context.phone })),
  },
  guards: {
    'is captcha pending': ({ context }) => isCaptchaPending(context),
    'is sent': (_, params: { answer: AccountAnswer }) => params.answer.success,
  },
}).createMachine({
  id: 'forgotPassword',
  description: 'Sends a forgot-password code to the phone, then hands over to the code screen.',
  // This screen always has the robot check: it sends an SMS to any phone typed in (SPEC §2, §5).
  context: ({ input }) => ({ objectOID: input.bill.objectOID, phone: '', showCaptcha: true, captcha: null, error: null }),
  initial: 'editing',
  on: { ...captchaHandlers },
  states: {
    editing: {
      on: {
        'forgotPassword.submit': [{ guard: 'is captcha pending' }, { target: 'sendingCode', actions: ['remember phone', 'clear error'] }],
      },
    },
    sendingCode: {
      tags: 'busy',
      invoke: {
        src: 'sendCode',
        input: ({ context }) => ({
          phone: context.phone,
          purpose: 'forgot-password' as const,
          objectOID: context.objectOID,
          custNo: null,
          usePoints: false,
          captcha: context.captcha,
        }),
        onDone: [
          { guard: { type: 'is sent', params: ({ event }) => ({ answer: event.output }) }, target: 'codeSent' },
          {
            target: 'editing',
            actions: [
              { type: 'log error', params: ({ event }) => ({ error: event.output.error }) },
              { type: 'show send refusal', params: ({ event }) => ({ secondsLeft: event.output.secondsLeft }) },
              'forget captcha',
            ],
          },
        ],
        onError: {
          target: 'editing',
          actions: [{ type: 'log error', params: ({ event }) => ({ error: event.error }) }, { type: 'show send refusal', params: { secondsLeft: null } }, 'forget captcha'],
        },
      },
    },
    codeSent: {
      tags: 'busy',
      entry: 'ask for the code',
    },
  },
});
