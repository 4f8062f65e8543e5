import { assertEvent, assign, sendParent, setup } from 'xstate';
import { messages } from '../services/messages';
import type { AccountAnswer, CaptchaEvent, CaptchaState, SendCodeInput } from './accountFlow';
import { captchaHandlers, captchaRequestOf, isCaptchaPending, verifiedCaptcha } from './accountFlow';
import type { StepFlowInput } from './checkout';
import { notProvided, promiseStub } from './stub';

export interface UsePointsContext extends CaptchaState {
  objectOID: string;
  custNo: string | null;
  /** The bill customer's phone, where the points code goes. */
  phone: string;
  phoneChecked: boolean;
  /** The most the payer may spend (SPEC §3: the smaller of useful points and sum plus commission). */
  maxPoints: number;
  /** The points asked for, clamped to 0…maxPoints. */
  points: number | null;
  /** 'Заполните поле' when the field was empty. */
  error: string | null;
}

export type UsePointsEvent = { type: 'points.submit'; points: number | null } | CaptchaEvent;

/** SPEC §5: points are clamped between 0 and the maximum spendable points, in whole points. */
export const clampPoints = (points: number, max: number) => Math.min(Math.max(0, Math.floor(points)), Math.max(0, max));

/**
 * The points screen (SPEC §4): with the phone already checked the points are applied at once; otherwise,
 * unless the robot check is pending, a use-points code goes to the customer's phone and the checkout moves to the
 * code screen with the points to use. Only a bill with a customer number (CustNo) and useful points has any.
 */
export const usePointsMachine = setup({
  types: {
    input: {} as StepFlowInput,
    context: {} as UsePointsContext,
    events: {} as UsePointsEvent,
    tags: {} as 'busy',
  },
  actors: {
    sendCode: promiseStub<AccountAnswer, SendCodeInput>('sendCode'),
  },
  actions: {
    'log error': (_, _params: { error: unknown }) => notProvided('log error'),
    'remember captcha': assign(verifiedCaptcha),
    'forget captcha': assign({ captcha: null }),
    'show points required': assign({ error: messages.points.required }),
    'remember points': assign(({ context, event }) => {
      assertEvent(event, 'points.submit');
      return { points: clampPoints(event.points ?? 0, context.maxPoints), error: null };
    }),
    'read captcha request': assign(captchaRequestOf),
    'apply points': sendParent(({ context }) => ({ type: 'points.apply' as const, points: context.points ?? 0 })),
    'ask for the code': sendParent(({ context }) => ({
      type: 'code.required' as const,
      checkType: 'use-points' as const,
      phone: context.phone,
      pointsToUse: context.points,
    })),
  },
  guards: {
    'has no usable points': ({ context }) => !context.custNo || context.maxPoints <= 0,
    'is points empty': ({ event }) => event.type === 'points.submit' && (event.points === null || Number.isNaN(event.points)),
    'is phone checked': ({ context }) => context.phoneChecked,
    'is captcha pending': ({ context }) => isCaptchaPending(context),
    'is sent': (_, params: { answer: AccountAnswer }) => params.answer.success,
  },
}).createMachine({
  id: 'usePoints',
  description: 'Applies points at once for a checked phone, otherwise sends a use-points code first.',
  context: ({ input }) => ({
    objectOID: input.bill.objectOID,
    custNo: input.bill.info.CustNo,
    phone: input.phone,
    phoneChecked: input.phoneChecked,
    maxPoints: input.maxPoints,
    points: input.pointsToUse,
    error: null,
    showCaptcha: false,
    captcha: null,
  }),
  initial: 'deciding',
  on: { ...captchaHandlers },
  states: {
    deciding: {
      always: [{ guard: 'has no usable points', target: 'unavailable' }, { target: 'editing' }],
    },
    unavailable: {
      description: "'Бонусных баллов для оплаты не найдено'",
    },
    editing: {
      on: {
        'points.submit': [
          { guard: 'is points empty', actions: 'show points required' },
          { guard: 'is phone checked', target: 'applied', actions: 'remember points' },
          { guard: 'is captcha pending' },
          { target: 'sendingCode', actions: 'remember points' },
        ],
      },
    },
    sendingCode: {
      tags: 'busy',
      invoke: {
        src: 'sendCode',
        input: ({ context }) => ({
          phone: context.phone,
          purpose: 'use-points' as const,
          objectOID: context.objectOID,
          custNo: context.custNo,
          usePoints: true,
          captcha: context.captcha,
        }),
        onDone: [
          {
            guard: { type: 'is sent', params: ({ event }) => ({ answer: event.output }) },
            target: 'codeSent',
            actions: { type: 'read captcha request', params: ({ event }) => ({ answer: event.output }) },
          },
          {
            target: 'editing',
            actions: [
              { type: 'log error', params: ({ event }) => ({ error: event.output.error }) },
              { type: 'read captcha request', params: ({ event }) => ({ answer: event.output }) },
            ],
          },
        ],
        onError: { target: 'editing', actions: [{ type: 'log error', params: ({ event }) => ({ error: event.error }) }, 'forget captcha'] },
      },
    },
    applied: {
      tags: 'busy',
      entry: 'apply points',
    },
    codeSent: {
      tags: 'busy',
      entry: 'ask for the code',
    },
  },
});
