import { assertEvent, assign, sendParent, setup } from 'xstate';
import type { RegisterForm } from '../services/types';
import type { AccountAnswer, CaptchaEvent, CaptchaState, SendCodeInput } from './accountFlow';
import { captchaHandlers, isCaptchaPending, sendRefusalText, verifiedCaptcha } from './accountFlow';
import type { StepFlowInput } from './checkout';
import { notProvided, promiseStub } from './stub';

export interface RegisterContext extends CaptchaState {
  /** Why no code went out (the server refused or failed), shown above Continue; null while none. */
  error: string | null;
  objectOID: string;
  /** The client form, kept for the registration call after the code is confirmed. */
  form: RegisterForm | null;
}

export type RegisterEvent = { type: 'register.submit'; form: RegisterForm } | CaptchaEvent;

/**
 * Register (SPEC §4): after the robot check, a register code is sent to the form's phone; on success the
 * checkout goes to checkSendCode with check type register and keeps the form values for the registration.
 */
export const registerMachine = setup({
  types: {
    input: {} as StepFlowInput,
    context: {} as RegisterContext,
    events: {} as RegisterEvent,
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
    'remember form': assign(({ event }) => {
      assertEvent(event, 'register.submit');
      return { form: event.form };
    }),
    'ask for the code': sendParent(({ context }) => ({
      type: 'code.required' as const,
      checkType: 'register' as const,
      phone: context.form!.phone,
      registerForm: context.form,
    })),
  },
  guards: {
    'is captcha pending': ({ context }) => isCaptchaPending(context),
    'is sent': (_, params: { answer: AccountAnswer }) => params.answer.success,
  },
}).createMachine({
  id: 'register',
  description: 'Sends a register code to the phone of the client form, then hands over to the code screen.',
  // This screen always has the robot check: it sends an SMS to any phone typed in (SPEC §2, §5).
  context: ({ input }) => ({ objectOID: input.bill.objectOID, form: null, showCaptcha: true, captcha: null, error: null }),
  initial: 'editing',
  on: { ...captchaHandlers },
  states: {
    editing: {
      on: {
        'register.submit': [{ guard: 'is captcha pending' }, { target: 'sendingCode', actions: ['remember form', 'clear error'] }],
      },
    },
    sendingCode: {
      tags: 'busy',
      invoke: {
        src: 'sendCode',
        input: ({ context }) => ({
          phone: context.form!.phone,
          purpose: 'register' as const,
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
