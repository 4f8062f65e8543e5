import { assign, raise, sendParent, type ActorRefFrom, type DoneActorEvent } from 'xstate';
import {
  agreementsOf,
  initialContext,
  mainStep,
  missingAgreements,
  noAgreements,
  payOutcome,
  pointsForPart,
  chosenWay,
  resumedWay,
} from './checkoutContext';
import type { LoadedCode } from './chunks';
import { unlocked } from './codePurposeSteps';
import { emailContinueStates } from './emailStep';
import { askedFor, route, steps, type Step } from './steps';
import { codeMissing } from './checkoutGuards';
import { checkoutSetup } from './checkoutSetup';

export { openedByPayer, steps, type PayerOpenedStep, type RouteMeta, type Step } from './steps';
export type { BankWidgetInput, BankWidgetOutput } from './bankWidget';
export { derive, type Agreements, type CheckoutContext, type CheckoutEvent, type CheckoutInput, type CheckoutProblem } from './checkoutContext';

/** Every step: a reload comes back to the step it was on, when what it needs is still there (checkoutResume.ts). */
const resumableSteps = Object.keys(steps) as Step[];

/**
 * The checkout: a state per step (steps.ts), each the address bar's route, and the steps passed as history. Beside it:
 * its context and what views derive (checkoutContext.ts), resuming after a reload (checkoutResume.ts), the code
 * purposes' table (codePurposeSteps.ts), paying (payment.ts), the main route's e-mail and Continue (emailStep.ts); what its
 * actions, actors and guards do (checkoutSetup.ts).
 */
export const checkoutMachine = checkoutSetup.createMachine({
  id: 'checkout',
  description: 'The checkout steps; every step is a route (steps.ts), history is context.',
  context: ({ input }) => initialContext(input),
  initial: 'start',
  on: {
    // A step the payer asks for opens through `opening`, which fetches its code first when it is not here yet.
    'nav.goTo': {
      guard: 'is opened by the payer',
      target: '.opening',
      actions: ['push history', 'clear problem', { type: 'go to', params: ({ event }) => ({ step: event.step }) }],
    },
    'nav.back': { guard: 'can go back', target: '.opening', actions: ['go back', 'pop history', 'clear problem'] },
    'session.updated': { actions: 'update session' },
    'payer.typed': { actions: 'remember typed' },
    'user.signedIn': { actions: sendParent({ type: 'user.signedIn' }) },
    'user.change': { actions: sendParent({ type: 'user.change' }) },
    'code.sent': {
      target: '.checkSendCode',
      actions: ['push history', { type: 'remember code asked for', params: ({ event }) => ({ request: event.request }) }, 'drop form draft'],
    },
    'code.confirmed': [
      {
        guard: 'is points unknown',
        target: '.usePoints',
        actions: ['forget code asked for', assign(({ context, event }) => unlocked(event.request, context)), assign({ history: ({ context }) => [mainStep(context.bill)] })],
      },
      { target: '.main', actions: ['forget code asked for', assign(({ context, event }) => unlocked(event.request, context))] },
    ],
    'freeCall.ended': { target: '.main' },
  },
  states: {
    start: {
      // A reload resumes what the server still has open (checkoutResume.ts); any other step starts again at the main
      // route, and the address bar follows (it shows the step the checkout is in). A page that opens past the first
      // step has that step's code fetched first (`opening`), then decides here again.
      always: [
        { guard: 'opens on a later step', target: 'opening' },
        // The fast payment's QR while its attempt waits; the code screen while its code is valid, else its form.
        ...resumableSteps.map((step) => ({ guard: { type: 'resumes at' as const, params: { step } }, target: step, actions: 'resume' as const })),
        { guard: 'is a retry', target: 'choosePaymentType', actions: { type: 'restore history', params: { through: [] } } },
        { guard: 'main route is the guest step', target: 'guest' },
        { target: 'account' },
      ],
    },
    opening: {
      description:
        "The code of the step asked for (goingTo), or of the step the page opens on, fetched when it is not here yet; then that step (or start's choice). Lost after its retry: 'Не удалось загрузить страницу' until the payer tries again.",
      initial: 'checking',
      states: {
        checking: { always: [{ guard: 'is its code here', target: 'going' }, { target: 'loading' }] },
        loading: {
          tags: 'loading step',
          invoke: {
            src: 'loadCode',
            input: ({ context }) => ({ chunks: codeMissing(context) }),
            onDone: { target: 'going', actions: { type: 'keep code', params: ({ event }: { event: DoneActorEvent<LoadedCode> }) => ({ code: event.output }) } },
            onError: 'failed',
          },
        },
        failed: { tags: 'step code failed', on: { 'code.retry': 'loading' } },
        going: {
          always: [
            ...askedFor.map((step) => ({ guard: { type: 'is going to' as const, params: { step } }, target: `#checkout.${step}`, actions: 'arrive' as const })),
            { target: '#checkout.start' },
          ],
        },
      },
    },
    /** Goes to the main route with history cleared (after a code check, a free call or applied points). */
    main: {
      entry: 'clear history',
      always: [{ guard: 'main route is the guest step', target: 'guest' }, { target: 'account' }],
    },
    account: {
      meta: route('account'),
      // The main route: a code flow still running (Back from its step) has nothing more to do.
      entry: [{ type: 'enter step', params: { step: 'account' } }, 'stop code flow', 'forget code asked for', 'drop form draft'],
      initial: 'deciding',
      states: {
        deciding: { always: [{ guard: 'is signed in', target: 'signedIn' }, { target: 'signInForm' }] },
        signInForm: {
          description: "The sign-in form's code (its own chunk) first; lost after its retry, the form's place says so until the payer tries again.",
          on: { 'session.updated': { target: 'deciding', actions: 'update session' } },
          initial: 'checking',
          states: {
            checking: { always: [{ guard: 'is the sign-in form here', target: 'shown' }, { target: 'loading' }] },
            loading: {
              invoke: {
                src: 'loadCode',
                input: { chunks: ['signInForm'] },
                onDone: { target: 'shown', actions: { type: 'keep code', params: ({ event }: { event: DoneActorEvent<LoadedCode> }) => ({ code: event.output }) } },
                onError: 'failed',
              },
            },
            failed: { tags: 'form code failed', on: { 'code.retry': 'loading' } },
            shown: { entry: 'start sign-in form', exit: { type: 'stop child', params: { id: 'signIn' } } },
          },
        },
        signedIn: {
          on: { 'session.updated': { target: 'deciding', actions: 'update session' } },
          ...emailContinueStates(),
        },
      },
    },
    guest: {
      meta: route('guest'),
      entry: [{ type: 'enter step', params: { step: 'guest' } }, 'stop code flow', 'forget code asked for', 'drop form draft'],
      ...emailContinueStates(),
    },
    usePoints: {
      meta: route('usePoints'),
      entry: { type: 'enter step', params: { step: 'usePoints' } },
      initial: 'deciding',
      states: {
        deciding: { always: [{ guard: 'has no spendable points', target: 'unavailable' }, { target: 'choosing' }] },
        unavailable: { description: "'Бонусных баллов для оплаты не найдено'" },
        choosing: {
          description: 'Starts a fresh send-code flow (pointsCode). A checked phone spends the points at once; otherwise a use-points code goes to the bill phone.',
          entry: ['stop code flow', { type: 'start code flow', params: { purpose: 'use-points' } }],
          on: {
            'points.use': [
              { guard: 'is phone checked', target: '#checkout.main', actions: 'apply points' },
              { actions: ['remember points to use', 'ask for a points code'] },
            ],
          },
        },
      },
    },
    checkSendCode: {
      meta: route('checkSendCode'),
      description: 'The code screen of the running code flow.',
      entry: { type: 'enter step', params: { step: 'checkSendCode' } },
    },
    checkByPhone: {
      meta: route('checkByPhone'),
      entry: [{ type: 'enter step', params: { step: 'checkByPhone' } }, 'start free call'],
      exit: { type: 'stop child', params: { id: 'freeCall' } },
    },
    forgotPassword: {
      meta: route('forgotPassword'),
      description: 'Starts a fresh send-code flow for a forgot-password code (passwordCode).',
      // The points to use are reset first.
      entry: [
        { type: 'enter step', params: { step: 'forgotPassword' } },
        assign({ pointsToUse: null }),
        'stop code flow',
        { type: 'start code flow', params: { purpose: 'forgot-password' } },
      ],
    },
    register: {
      meta: route('register'),
      description: 'Starts a fresh send-code flow for a register code (registrationCode).',
      entry: [{ type: 'enter step', params: { step: 'register' } }, assign({ pointsToUse: null }), 'stop code flow', { type: 'start code flow', params: { purpose: 'register' } }],
    },
    choosePaymentType: {
      meta: route('choosePaymentType'),
      // The first type is preselected, unless points cover the bill and no type is needed.
      entry: [
        { type: 'enter step', params: { step: 'choosePaymentType' } },
        assign({ agreementErrors: noAgreements }),
        'choose a type',
        // The offer modal's text, fetched when an agreement's link is opened.
        'start offer',
      ],
      exit: { type: 'stop child', params: { id: 'offer' } },
      initial: 'deciding',
      states: {
        deciding: { always: [{ guard: 'is an attempt open', target: 'openAttempt' }, { target: 'choosing' }] },
        openAttempt: {
          tags: 'open attempt',
          description:
            "An attempt of the bill may still be paid (a QR or a card form, in this tab or another): 'Оплата уже начата' with the way back to it; another way is offered only once the payer has confirmed it abandons that one.",
          initial: 'said',
          states: {
            said: { on: { 'openAttempt.chooseAnother': 'confirming' } },
            confirming: {
              tags: 'confirming another way',
              description: "'Отменить начатую оплату?': confirmed, the ways to pay are offered, and Pay has the server end the open one at the bank.",
              on: { 'openAttempt.abandon': '#checkout.choosePaymentType.choosing' },
            },
          },
          on: {
            // Its way (and part) chosen, then Pay as on the form: the same checks, the same request, the same attempt found.
            'openAttempt.resume': {
              target: 'choosing',
              actions: [assign(({ context }) => resumedWay(context)), raise({ type: 'payment.pay' })],
            },
          },
        },
        choosing: {
          on: {
            'payment.select': {
              guard: 'is a type needed',
              actions: assign(({ event }) => chosenWay(event.oid)),
            },
            // The part typed: the fee, the points and the total follow it as the payer types.
            'part.type': {
              actions: [assign({ partTyped: ({ event }) => event.text, problem: null }), assign({ usedPoints: ({ context }) => pointsForPart(context) })],
            },
            // The points given up: the whole price is to pay, by a way to pay chosen again.
            'points.clear': { actions: [assign({ usedPoints: 0, pointsToUse: null }), 'choose a type'] },
            // Each agreement check clears both error marks.
            'agreement.set': {
              actions: assign({
                agreements: ({ context, event }) =>
                  context.selectedTypeOid ? { ...context.agreements, [context.selectedTypeOid]: { ...agreementsOf(context), [event.kind]: event.checked } } : context.agreements,
                agreementErrors: noAgreements,
              }),
            },
            'payment.pay': [
              // A part the bill cannot take is not asked for: the field already says why, beside it.
              { guard: 'is the part wrong' },
              { guard: 'is an agreement missing', actions: assign({ agreementErrors: ({ context }) => missingAgreements(context) }) },
              { guard: 'is e-mail changed', target: 'checkingEmail', actions: 'clear problem' },
              { target: 'paying', actions: 'clear problem' },
            ],
          },
        },
        checkingEmail: {
          tags: 'busy',
          description: 'The receipt e-mail was changed on this step: the server checks it, then Pay goes on with it.',
          invoke: {
            src: 'checkEmail',
            input: ({ event }) => ({ email: event.type === 'payment.pay' ? (event.email ?? '') : '' }),
            onDone: {
              target: 'paying',
              actions: { type: 'remember e-mail', params: ({ event }) => ({ email: event.output }) },
            },
            onError: { target: 'choosing', actions: 'mark e-mail rejected' },
          },
        },
        paying: {
          tags: 'busy',
          description: 'The payment machine asks for the payment and follows the answer: a form, the widget, or the QR.',
          entry: 'start payment',
          exit: { type: 'stop child', params: { id: 'payment' } },
          on: {
            'xstate.done.actor.payment': [
              { guard: { type: 'is fast payment', params: payOutcome }, target: '#checkout.sbp', actions: [{ type: 'remember fast payment', params: payOutcome }, 'push history'] },
              { guard: { type: 'is bill paid meanwhile', params: payOutcome }, target: 'alreadyPaid' },
              { guard: { type: 'is not paid', params: payOutcome }, target: 'choosing', actions: { type: 'show problem', params: payOutcome } },
              { target: 'redirecting' },
            ],
          },
        },
        alreadyPaid: {
          tags: 'already paid',
          description: "A stale tab: the server says the bill is paid already (409); nothing is left to pay, nor to go back to.",
          entry: 'clear history',
        },
        redirecting: { tags: ['busy', 'redirecting'] },
      },
    },
    sbp: {
      meta: route('sbp'),
      entry: [
        { type: 'enter step', params: { step: 'sbp' } },
        // A phone payer goes to the bank app, which hides this tab: polling goes on meanwhile.
        { type: 'start status polling', params: ({ context }) => ({ keepPollingWhenHidden: !context.isDesktop }) },
      ],
      exit: { type: 'stop child', params: { id: 'paymentStatus' } },
      on: {
        // The result replaces the fast-payment step: its payment is settled, so Back never returns to it.
        // PayOutcome, there is nowhere to go back to; declined, Back goes to choose another way to pay.
        'xstate.done.actor.paymentStatus': [
          { guard: { type: 'is paid', params: ({ event }) => ({ status: event.output.status }) }, target: 'result', actions: ['clear history', 'forget open attempt'] },
          { guard: { type: 'is declined', params: ({ event }) => ({ status: event.output.status }) }, target: 'result', actions: 'forget open attempt' },
          // PayOutcome twice: the bill is paid (by the other payment), so there is nothing to go back to either.
          { guard: { type: 'is refunded', params: ({ event }) => ({ status: event.output.status }) }, target: 'result', actions: ['clear history', 'forget open attempt'] },
        ],
      },
    },
    result: {
      meta: route('result'),
      // The payment's answer: nothing to step back to ('Попробовать снова' after a decline is the way back to paying).
      tags: 'settled',
      entry: [{ type: 'enter step', params: { step: 'result' } }, { type: 'start status polling', params: { keepPollingWhenHidden: false } }],
      exit: { type: 'stop child', params: { id: 'paymentStatus' } },
    },
  },
});

export type CheckoutActor = ActorRefFrom<typeof checkoutMachine>;
