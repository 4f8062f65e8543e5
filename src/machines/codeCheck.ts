import { assertEvent, assign, sendParent, setup } from 'xstate';
import { messages } from '../services/messages';
import type { CheckType, RegisterForm } from '../services/types';
import type {
  AccountAnswer,
  CaptchaEvent,
  CaptchaState,
  CheckCodeInput,
  RegisterAccountInput,
  RestorePasswordInput,
  SendCodeInput,
} from './accountFlow';
import { captchaHandlers, captchaRequestOf, isCaptchaPending, verifiedCaptcha } from './accountFlow';
import type { StepFlowInput } from './checkout';
import { notProvided, promiseStub } from './stub';

/** SPEC §9: a code may be sent again after 60 s, counted down each second. */
export const RESEND_SECONDS = 60;
export const CODE_LENGTH = 4;

export interface CodeCheckContext extends CaptchaState {
  phone: string;
  checkType: CheckType;
  registerForm: RegisterForm | null;
  objectOID: string;
  custNo: string | null;
  /** Seconds until 'Отправить код повторно' works; 0 when it does. */
  secondsLeft: number;
  /** 'Введите код' or 'Ошибка проверки кода'. */
  error: string | null;
}

export type CodeCheckEvent =
  | { type: 'code.submit'; code: string }
  | { type: 'code.resend' }
  /** Tries the reset or registration again after it failed and the robot check was passed. */
  | { type: 'code.finish' }
  | CaptchaEvent;

/**
 * The code screen (SPEC §4 code check flow). The code was sent by the flow before; here it can be sent again
 * after the 60 s countdown, and the four digits are checked. A confirmed code finishes by check type:
 * forgot-password asks for a password reset, register submits the registration, use-points needs nothing more;
 * then the checkout hears 'code.confirmed'. A failed reset or registration shows the robot check when the server
 * asks (show_captcha) and goes no further until the payer tries again.
 */
export const codeCheckMachine = setup({
  types: {
    input: {} as StepFlowInput,
    context: {} as CodeCheckContext,
    events: {} as CodeCheckEvent,
    tags: {} as 'busy' | 'sending' | 'finish failed',
  },
  actors: {
    sendCode: promiseStub<AccountAnswer, SendCodeInput>('sendCode'),
    checkCode: promiseStub<AccountAnswer, CheckCodeInput>('checkCode'),
    restorePassword: promiseStub<AccountAnswer, RestorePasswordInput>('restorePassword'),
    registerAccount: promiseStub<AccountAnswer, RegisterAccountInput>('registerAccount'),
  },
  actions: {
    'log error': (_, _params: { error: unknown }) => notProvided('log error'),
    'remember captcha': assign(verifiedCaptcha),
    'forget captcha': assign({ captcha: null }),
    'read captcha request': assign(captchaRequestOf),
    'tick resend countdown': assign({ secondsLeft: ({ context }) => Math.max(0, context.secondsLeft - 1) }),
    'start resend countdown': assign((_, params: { seconds: number | null }) => ({ secondsLeft: params.seconds ?? RESEND_SECONDS })),
    'show code incomplete': assign({ error: messages.code.incomplete }),
    'show code rejected': assign({ error: messages.code.rejected }),
    'show finish failed': assign({ error: messages.code.finishFailed }),
    'clear error': assign({ error: null }),
    'tell checkout confirmed': sendParent(({ context }) => ({ type: 'code.confirmed' as const, checkType: context.checkType })),
  },
  guards: {
    'is captcha pending': ({ context }) => isCaptchaPending(context),
    'is code incomplete': ({ event }) => event.type === 'code.submit' && !new RegExp(`^\\d{${CODE_LENGTH}}$`).test(event.code),
    'is last second': ({ context }) => context.secondsLeft <= 1,
    'is accepted': (_, params: { answer: AccountAnswer }) => params.answer.success,
    'has wait time': (_, params: { answer: AccountAnswer }) => (params.answer.secondsLeft ?? 0) > 0,
    'is check type': ({ context }, params: { checkType: CheckType }) => context.checkType === params.checkType,
  },
  delays: {
    'resend tick': 1000,
  },
}).createMachine({
  id: 'codeCheck',
  description: 'Resend countdown and code check side by side; a confirmed code finishes by check type.',
  context: ({ input }) => ({
    phone: input.phone,
    checkType: input.checkType ?? 'use-points',
    registerForm: input.registerForm,
    objectOID: input.bill.objectOID,
    custNo: input.checkType === 'use-points' ? input.bill.info.CustNo : null,
    // The code has just been sent by the step before this one.
    secondsLeft: RESEND_SECONDS,
    error: null,
    showCaptcha: false,
    captcha: null,
  }),
  type: 'parallel',
  on: { ...captchaHandlers },
  states: {
    resend: {
      initial: 'counting',
      states: {
        counting: {
          after: {
            'resend tick': [
              { guard: 'is last second', target: 'ready', actions: 'tick resend countdown' },
              { target: 'counting', reenter: true, actions: 'tick resend countdown' },
            ],
          },
        },
        ready: {
          on: {
            'code.resend': [{ guard: 'is captcha pending' }, { target: 'sending' }],
          },
        },
        sending: {
          tags: 'sending',
          invoke: {
            src: 'sendCode',
            input: ({ context }) => ({
              phone: context.phone,
              purpose: context.checkType,
              objectOID: context.objectOID,
              custNo: context.custNo,
              usePoints: context.checkType === 'use-points',
              captcha: context.captcha,
            }),
            onDone: [
              {
                guard: { type: 'is accepted', params: ({ event }) => ({ answer: event.output }) },
                target: 'counting',
                actions: [
                  { type: 'read captcha request', params: ({ event }) => ({ answer: event.output }) },
                  { type: 'start resend countdown', params: ({ event }) => ({ seconds: event.output.secondsLeft }) },
                ],
              },
              {
                // Too early: the server says how long to wait, and the countdown shows it.
                guard: { type: 'has wait time', params: ({ event }) => ({ answer: event.output }) },
                target: 'counting',
                actions: [
                  { type: 'log error', params: ({ event }) => ({ error: event.output.error }) },
                  { type: 'read captcha request', params: ({ event }) => ({ answer: event.output }) },
                  { type: 'start resend countdown', params: ({ event }) => ({ seconds: event.output.secondsLeft }) },
                ],
              },
              {
                target: 'ready',
                actions: [
                  { type: 'log error', params: ({ event }) => ({ error: event.output.error }) },
                  { type: 'read captcha request', params: ({ event }) => ({ answer: event.output }) },
                ],
              },
            ],
            onError: { target: 'ready', actions: [{ type: 'log error', params: ({ event }) => ({ error: event.error }) }, 'forget captcha'] },
          },
        },
      },
    },
    check: {
      initial: 'entering',
      states: {
        entering: {
          on: {
            'code.submit': [
              { guard: 'is code incomplete', actions: 'show code incomplete' },
              { guard: 'is captcha pending' },
              { target: 'checking', actions: 'clear error' },
            ],
          },
        },
        checking: {
          tags: 'busy',
          invoke: {
            src: 'checkCode',
            input: ({ context, event }) => {
              assertEvent(event, 'code.submit');
              return {
                code: event.code,
                phone: context.phone,
                purpose: context.checkType,
                custNo: context.custNo,
                usePoints: context.checkType === 'use-points',
                captcha: context.captcha,
              };
            },
            onDone: [
              {
                guard: { type: 'is accepted', params: ({ event }) => ({ answer: event.output }) },
                target: 'confirmed',
                actions: { type: 'read captcha request', params: ({ event }) => ({ answer: event.output }) },
              },
              {
                target: 'entering',
                actions: [
                  { type: 'log error', params: ({ event }) => ({ error: event.output.error }) },
                  'show code rejected',
                  { type: 'read captcha request', params: ({ event }) => ({ answer: event.output }) },
                ],
              },
            ],
            onError: {
              target: 'entering',
              actions: [{ type: 'log error', params: ({ event }) => ({ error: event.error }) }, 'show code rejected', 'forget captcha'],
            },
          },
        },
        confirmed: {
          always: [
            { guard: { type: 'is check type', params: { checkType: 'forgot-password' } }, target: 'restoringPassword' },
            { guard: { type: 'is check type', params: { checkType: 'register' } }, target: 'registering' },
            { target: 'done' },
          ],
        },
        restoringPassword: {
          tags: 'busy',
          invoke: {
            src: 'restorePassword',
            input: ({ context }) => ({ phone: context.phone, captcha: context.captcha }),
            onDone: [
              { guard: { type: 'is accepted', params: ({ event }) => ({ answer: event.output }) }, target: 'done' },
              {
                target: 'finishFailed',
                actions: [
                  { type: 'log error', params: ({ event }) => ({ error: event.output.error }) },
                  { type: 'read captcha request', params: ({ event }) => ({ answer: event.output }) },
                ],
              },
            ],
            onError: { target: 'finishFailed', actions: [{ type: 'log error', params: ({ event }) => ({ error: event.error }) }, 'forget captcha'] },
          },
        },
        registering: {
          tags: 'busy',
          invoke: {
            src: 'registerAccount',
            input: ({ context }) => ({ form: context.registerForm!, captcha: context.captcha }),
            onDone: [
              { guard: { type: 'is accepted', params: ({ event }) => ({ answer: event.output }) }, target: 'done' },
              {
                target: 'finishFailed',
                actions: [
                  { type: 'log error', params: ({ event }) => ({ error: event.output.error }) },
                  { type: 'read captcha request', params: ({ event }) => ({ answer: event.output }) },
                ],
              },
            ],
            onError: { target: 'finishFailed', actions: [{ type: 'log error', params: ({ event }) => ({ error: event.error }) }, 'forget captcha'] },
          },
        },
        finishFailed: {
          description: 'The robot check shows when the server asked for it; nothing further until the payer tries again.',
          tags: 'finish failed',
          // The code was right: say that the last step failed, so the payer knows Continue retries it.
          entry: 'show finish failed',
          on: {
            'code.finish': [
              { guard: 'is captcha pending' },
              { guard: { type: 'is check type', params: { checkType: 'forgot-password' } }, target: 'restoringPassword', actions: 'clear error' },
              { target: 'registering', actions: 'clear error' },
            ],
          },
        },
        done: {
          tags: 'busy',
          entry: 'tell checkout confirmed',
        },
      },
    },
  },
});
