import { assertEvent, assign, fromPromise, sendParent, setup } from 'xstate';
import type { CodePurpose, CodeRequest } from '../services/types';
import type { AccountAnswer, CaptchaEvent, CaptchaPolicy, CaptchaState, CheckCodeInput, SendCodeInput } from './accountFlow';
import { captchaFor, captchaHandlers, captchaRequestOf, isCaptchaPending, verifiedCaptcha } from './accountFlow';
import { errorOf, logErrorStub, promiseStub } from './stub';

/** A code may be sent again after 60 s, counted down each second. */
export const RESEND_SECONDS = 60;
export const CODE_LENGTH = 4;

export type { CodeRequest } from '../services/types';

export interface CodeFlowInput {
  purpose: CodePurpose;
  /** The robot check of the step's form; the code screen shows it only when the server asks. */
  captcha: CaptchaPolicy;
  objectOID: string;
  /** The bill's customer number, which a use-points code carries. */
  custNo: string | null;
  /** A reload on the code screen: the flow starts there, the code's request and the server's countdown given. */
  resume?: { request: CodeRequest; secondsLeft: number } | null;
  /** Reloaded on the code screen whose code can no longer be entered: what the step's form had, to show it again. */
  draft?: CodeRequest | null;
}

/** Why the payer must act again; the view words it from the message catalogue. */
export type CodeProblem =
  /** The server sent no code: the wait it named, or none. */
  | { kind: 'not sent'; secondsLeft: number | null }
  /**
   * The robot check must pass first (the server asked for it, or it is shown and not ticked): the one thing to do.
   * `rejected`: the code rejected just before, still said (with its tries left) while the check waits.
   */
  | { kind: 'robot check'; rejected?: { triesLeft: number | null } }
  /** The SMS provider did not take the text (a code, or the password a right code unlocked): try again in a minute. */
  | { kind: 'sms failed' }
  | { kind: 'code incomplete' }
  /** `triesLeft`: wrong codes the code still takes, as the server said; null when it did not say. */
  | { kind: 'code rejected'; triesLeft: number | null }
  /** The code was right but what it unlocks (the reset, the registration) failed: Continue tries it again. */
  | { kind: 'finish failed' };

/** The robot check asked for on the code screen, keeping the rejected code's words that came before it. */
function robotCheckAfter(problem: CodeProblem | null): CodeProblem {
  if (problem?.kind === 'code rejected') return { kind: 'robot check', rejected: { triesLeft: problem.triesLeft } };
  if (problem?.kind === 'robot check' && problem.rejected) return { kind: 'robot check', rejected: problem.rejected };
  return { kind: 'robot check' };
}

export interface CodeFlowContext extends Omit<CodeFlowInput, 'captcha' | 'resume'>, CaptchaState {
  request: CodeRequest | null;
  /** Seconds until 'Отправить код повторно' works; 0 when it does. */
  secondsLeft: number;
  problem: CodeProblem | null;
}

export type CodeFlowEvent =
  | { type: 'code.request'; request: CodeRequest }
  | { type: 'code.submit'; code: string }
  | { type: 'code.resend' }
  | CaptchaEvent;

/** What the finishing actor gets: the request the code confirmed and the token of a passed check. */
export interface FinishInput {
  request: CodeRequest;
  captcha: string | null;
}


/** The finish of a purpose whose right code unlocks nothing more on the server (use-points: the checkout applies them). */
export const nothingToFinish = fromPromise<AccountAnswer, FinishInput>(async () => ({ success: true, showCaptcha: false, secondsLeft: null, triesLeft: null, status: null, error: null }));

/**
 * Why no code came, one instruction at a time: the provider not taking the text (the payer must wait for it, whatever
 * else is asked), else the robot check when the server asks for it and names no wait (ticking is all it takes), else
 * the wait the server named (or none).
 */
const notSentProblem = (answer: AccountAnswer): CodeProblem =>
  answer.smsFailed
    ? { kind: 'sms failed' }
    : answer.showCaptcha && !((answer.secondsLeft ?? 0) > 0)
      ? { kind: 'robot check' }
      : { kind: 'not sent', secondsLeft: answer.secondsLeft };

const sendInput = ({ context }: { context: CodeFlowContext }): SendCodeInput => ({
  // The page holds the bill's phone masked: a points code goes to it by the server's word, never by the page's.
  phone: context.purpose === 'use-points' ? null : context.request!.phone,
  purpose: context.purpose,
  objectOID: context.objectOID,
  custNo: context.custNo,
  usePoints: context.purpose === 'use-points',
  captcha: context.captcha,
});

/**
 * The send-code flow of every purpose (forgot password, register, use points): the step's form asks for a
 * code (after the robot check when its policy says so); the code goes to the phone and the checkout shows the code
 * screen, where the code may be sent again after the 60 s countdown and the four digits are checked. A right code
 * runs `finish`, what the code unlocks, which the caller provides per purpose (restore the password, register,
 * nothing more); then the checkout hears 'code.confirmed' with the request. A failed finish shows the robot check
 * when the server asks and goes no further until the payer presses Continue again.
 */
export const codeFlowMachine = setup({
  types: {
    input: {} as CodeFlowInput,
    context: {} as CodeFlowContext,
    events: {} as CodeFlowEvent,
    output: {} as { request: CodeRequest },
    tags: {} as 'busy' | 'sending' | 'code sent',
  },
  actors: {
    sendCode: promiseStub<AccountAnswer, SendCodeInput>('sendCode'),
    checkCode: promiseStub<AccountAnswer, CheckCodeInput>('checkCode'),
    /** What a right code unlocks: the caller provides it for each purpose. */
    finish: promiseStub<AccountAnswer, FinishInput>('finish'),
  },
  actions: {
    'log error': logErrorStub,
    'remember captcha': assign(({ event }) => verifiedCaptcha({ event })),
    'forget captcha': assign({ captcha: null }),
    'read captcha request': assign(({ context }, params: { answer: AccountAnswer }) => captchaRequestOf({ context }, params)),
    'remember request': assign(({ event }) => {
      assertEvent(event, 'code.request');
      return { request: event.request };
    }),
    'show problem': assign((_, problem: CodeProblem) => ({ problem })),
    'clear problem': assign({ problem: null }),
    // The code screen asks for the robot check only when the server does, whatever the form's policy was.
    'start code screen': assign(captchaFor('when asked')),
    'tick resend countdown': assign({ secondsLeft: ({ context }) => Math.max(0, context.secondsLeft - 1) }),
    'start resend countdown': assign((_, params: { seconds: number | null }) => ({ secondsLeft: params.seconds ?? RESEND_SECONDS })),
    'tell checkout code sent': sendParent(({ context }) => ({ type: 'code.sent' as const, request: context.request! })),
    'tell checkout confirmed': sendParent(({ context }) => ({ type: 'code.confirmed' as const, request: context.request! })),
  },
  guards: {
    'is captcha pending': ({ context }) => isCaptchaPending(context),
    'is code incomplete': ({ event }) => event.type === 'code.submit' && !new RegExp(`^\\d{${CODE_LENGTH}}$`).test(event.code),
    'is last second': ({ context }) => context.secondsLeft <= 1,
    'is countdown over': ({ context }) => context.secondsLeft <= 0,
    'is resumed': ({ context }) => context.request !== null,
    'is accepted': (_, params: { answer: AccountAnswer }) => params.answer.success,
    'has wait time': (_, params: { answer: AccountAnswer }) => (params.answer.secondsLeft ?? 0) > 0,
    'is sms failed': (_, params: { answer: AccountAnswer }) => params.answer.smsFailed === true,
  },
  delays: {
    'resend tick': 1000,
  },
}).createMachine({
  id: 'codeFlow',
  description: 'Asks for a code, sends it, counts down the resend, checks the digits, then runs what the code unlocks.',
  context: ({ input }) => ({
    purpose: input.purpose,
    objectOID: input.objectOID,
    custNo: input.custNo,
    ...captchaFor(input.captcha),
    draft: input.draft ?? null,
    request: input.resume?.request ?? null,
    secondsLeft: input.resume?.secondsLeft ?? RESEND_SECONDS,
    problem: null,
  }),
  initial: 'opening',
  on: { ...captchaHandlers },
  states: {
    // Resumed after a reload (a request given): straight to the code screen, whose step the checkout already shows.
    opening: {
      always: [{ guard: 'is resumed', target: 'codeSent' }, { target: 'asking' }],
    },
    asking: {
      description: "The step's form: the phone, and what the code is for.",
      on: {
        'code.request': [{ guard: 'is captcha pending' }, { target: 'sending', actions: ['remember request', 'clear problem'] }],
      },
    },
    sending: {
      tags: 'busy',
      invoke: {
        src: 'sendCode',
        input: sendInput,
        onDone: [
          {
            guard: { type: 'is accepted', params: ({ event }) => ({ answer: event.output }) },
            target: 'codeSent',
            actions: [{ type: 'start resend countdown', params: { seconds: null } }, 'tell checkout code sent'],
          },
          {
            target: 'asking',
            actions: [
              { type: 'log error', params: errorOf },
              { type: 'show problem', params: ({ event }) => notSentProblem(event.output) },
              { type: 'read captcha request', params: ({ event }) => ({ answer: event.output }) },
            ],
          },
        ],
        onError: {
          target: 'asking',
          actions: [{ type: 'log error', params: errorOf }, { type: 'show problem', params: { kind: 'not sent', secondsLeft: null } }, 'forget captcha'],
        },
      },
    },
    codeSent: {
      description: 'The code screen: the resend countdown and the code check side by side.',
      tags: 'code sent',
      entry: 'start code screen',
      type: 'parallel',
      states: {
        resend: {
          initial: 'counting',
          states: {
            counting: {
              // A resumed code may be sendable again already (the server's countdown ran out during the reload).
              always: { guard: 'is countdown over', target: 'ready' },
              after: {
                'resend tick': [
                  { guard: 'is last second', target: 'ready', actions: 'tick resend countdown' },
                  { target: 'counting', reenter: true, actions: 'tick resend countdown' },
                ],
              },
            },
            // 'Отправить код повторно' is disabled while the robot check is pending, so no guard is needed here.
            ready: { on: { 'code.resend': 'resending' } },
            resending: {
              tags: 'sending',
              invoke: {
                src: 'sendCode',
                input: sendInput,
                onDone: [
                  {
                    guard: { type: 'is accepted', params: ({ event }) => ({ answer: event.output }) },
                    target: 'counting',
                    actions: [
                      'clear problem',
                      { type: 'read captcha request', params: ({ event }) => ({ answer: event.output }) },
                      { type: 'start resend countdown', params: ({ event }) => ({ seconds: event.output.secondsLeft }) },
                    ],
                  },
                  {
                    // Too early: the server says how long to wait, and the countdown shows it.
                    guard: { type: 'has wait time', params: ({ event }) => ({ answer: event.output }) },
                    target: 'counting',
                    actions: [
                      { type: 'log error', params: errorOf },
                      { type: 'read captcha request', params: ({ event }) => ({ answer: event.output }) },
                      { type: 'start resend countdown', params: ({ event }) => ({ seconds: event.output.secondsLeft }) },
                    ],
                  },
                  {
                    // The provider did not take the new code's text: the payer hears it here, and may send again.
                    guard: { type: 'is sms failed', params: ({ event }) => ({ answer: event.output }) },
                    target: 'ready',
                    actions: [
                      { type: 'log error', params: errorOf },
                      { type: 'show problem', params: { kind: 'sms failed' } },
                      { type: 'read captcha request', params: ({ event }) => ({ answer: event.output }) },
                    ],
                  },
                  {
                    target: 'ready',
                    actions: [{ type: 'log error', params: errorOf }, { type: 'read captcha request', params: ({ event }) => ({ answer: event.output }) }],
                  },
                ],
                onError: { target: 'ready', actions: [{ type: 'log error', params: errorOf }, 'forget captcha'] },
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
                  { guard: 'is code incomplete', actions: { type: 'show problem', params: { kind: 'code incomplete' } } },
                  // A code typed again before the tick: the tick is asked for anew, and the rejection before it stays said.
                  { guard: 'is captcha pending', actions: { type: 'show problem', params: ({ context }) => robotCheckAfter(context.problem) } },
                  { target: 'checking', actions: 'clear problem' },
                ],
              },
            },
            checking: {
              tags: 'busy',
              invoke: {
                src: 'checkCode',
                input: ({ context, event }) => {
                  assertEvent(event, 'code.submit');
                  return { ...sendInput({ context }), code: event.code };
                },
                onDone: [
                  {
                    guard: { type: 'is accepted', params: ({ event }) => ({ answer: event.output }) },
                    target: 'finishing',
                    actions: { type: 'read captcha request', params: ({ event }) => ({ answer: event.output }) },
                  },
                  {
                    target: 'entering',
                    actions: [
                      { type: 'log error', params: errorOf },
                      { type: 'show problem', params: ({ event }) => ({ kind: 'code rejected', triesLeft: event.output.triesLeft }) },
                      { type: 'read captcha request', params: ({ event }) => ({ answer: event.output }) },
                    ],
                  },
                ],
                onError: {
                  target: 'entering',
                  actions: [{ type: 'log error', params: errorOf }, { type: 'show problem', params: { kind: 'code rejected', triesLeft: null } }, 'forget captcha'],
                },
              },
            },
            finishing: {
              tags: 'busy',
              invoke: {
                src: 'finish',
                input: ({ context }) => ({ request: context.request!, captcha: context.captcha }),
                onDone: [
                  { guard: { type: 'is accepted', params: ({ event }) => ({ answer: event.output }) }, target: '#codeFlow.confirmed' },
                  // The code was right: say that the last step failed (or that its password's SMS did not go out), so
                  // the payer knows Continue retries it.
                  {
                    target: 'finishFailed',
                    actions: [
                      { type: 'log error', params: errorOf },
                      { type: 'show problem', params: ({ event }) => (event.output.smsFailed ? { kind: 'sms failed' } : { kind: 'finish failed' }) },
                      { type: 'read captcha request', params: ({ event }) => ({ answer: event.output }) },
                    ],
                  },
                ],
                onError: {
                  target: 'finishFailed',
                  actions: [{ type: 'log error', params: errorOf }, { type: 'show problem', params: { kind: 'finish failed' } }, 'forget captcha'],
                },
              },
            },
            finishFailed: {
              description: 'The robot check shows when the server asked for it; nothing further until the payer tries again.',
              on: {
                'code.submit': [
                  // A new problem each press, so the view answers each one.
                  { guard: 'is captcha pending', actions: { type: 'show problem', params: ({ context }) => robotCheckAfter(context.problem) } },
                  { target: 'finishing', actions: 'clear problem' },
                ],
              },
            },
          },
        },
      },
    },
    confirmed: {
      type: 'final',
      tags: 'busy',
      entry: 'tell checkout confirmed',
    },
  },
  output: ({ context }) => ({ request: context.request! }),
});
