import { assertEvent, assign, raise, sendParent, sendTo, setup, spawnChild, stopChild, type ActorRefFrom, type DoneActorEvent } from 'xstate';
import { canUsePoints, clampPoints, commission, emailUsed, finalPrice, isCoveredByPoints, maxSpendablePoints, phoneOf } from '../services/pricing';
import { maskPhone } from '../services/format';
import type { Bill, CodePurpose, LoyaltyUser, PaymentType, PaymentUrlRequest, PaymentUrlResponse } from '../services/types';
import type { CaptchaPolicy } from './accountFlow';
import { bankWidgetMachine, type BankWidgetOutput } from './bankWidget';
import { codeFlowMachine, nothingToFinish, type CodeFlowInput, type CodeRequest } from './codeFlow';
import { freeCallMachine } from './freeCall';
import { offerMachine } from './offer';
import { paymentStatusMachine } from './paymentStatus';
import { signInMachine } from './signIn';
import { openedByPayer, returnable, route, steps, type PayerOpenedStep, type Step } from './steps';
import { errorOf, logErrorStub, notProvided, promiseStub } from './stub';

export { openedByPayer, steps, type PayerOpenedStep, type RouteMeta, type Step } from './steps';
export type { BankWidgetInput, BankWidgetOutput } from './bankWidget';

export interface CheckoutInput {
  bill: Bill;
  user: LoyaltyUser | null;
  /** Desktop or phone, decided from the browser at the composition root (viewport and pointer). */
  isDesktop: boolean;
  /** The route the address bar showed at (re)load: the checkout resumes it when the server's data allows (issue 17). */
  resumePath?: string | null;
  /**
   * This tab's draft of the code step (issue 17): what the payer last asked a code for on this bill, so that a reload
   * on the code screen can finish the flow (services/codeDraft.ts). Null: none kept.
   */
  codeDraft?: CodeRequest | null;
}

/** What went wrong on the choose-payment-type step; the view words it from the catalogue (SPEC §8). */
export type CheckoutProblem = 'no payment url' | 'close with points failed';

/** The agreement ticks of one payment type (SPEC §5). */
export interface Agreements {
  aggregator: boolean;
  executer: boolean;
}

const noAgreements: Agreements = { aggregator: false, executer: false };

export interface CheckoutContext extends CheckoutInput {
  /** The step shown now, kept so that navigation can remember where it came from. */
  step: Step;
  /** Steps to go back to, newest last; the 'Back' link is hidden when it is empty. */
  history: Step[];
  anotherEmail: string | null;
  emailError: boolean;
  /** A restore or registration form's values kept by this tab, shown again on its form after a reload (issue 17). */
  formDraft: CodeRequest | null;
  /** The points last asked for, shown again when the payer comes back to the points screen. */
  pointsToUse: number | null;
  usedPoints: number;
  /** The bill's phone was proven by a use-points code: points apply at once from now on (SPEC §4). */
  phoneChecked: boolean;
  /** The phone the last code went to (the free-call line waits for a call from it). */
  sendSmsPhone: string;
  notice: 'new password sent' | 'registration success' | null;
  selectedTypeOid: string | null;
  /** The ticks by payment type: switching the way to pay and back keeps them (issue 17); each type has its own offer. */
  agreements: Record<string, Agreements>;
  agreementErrors: Agreements;
  paymentUrlData: PaymentUrlResponse | null;
  transactionID: string | null;
  formUrl: string | null;
  qrSrc: string | null;
  problem: CheckoutProblem | null;
}

export type CheckoutEvent =
  | { type: 'nav.goTo'; step: PayerOpenedStep }
  | { type: 'nav.back' }
  | { type: 'session.updated'; bill: Bill; user: LoyaltyUser | null }
  | { type: 'checkout.continue'; email?: string }
  | { type: 'user.change' }
  /** The points screen's 'Использовать баллы' with the number typed (clamped here). */
  | { type: 'points.use'; points: number }
  | { type: 'payment.select'; oid: string }
  | { type: 'agreement.set'; kind: 'aggregator' | 'executer'; checked: boolean }
  /** 'Оплатить', with the receipt e-mail of the step's field (issue 17: it stays editable there). */
  | { type: 'payment.pay'; email?: string }
  // From the children:
  | { type: 'code.sent'; request: CodeRequest }
  | { type: 'code.confirmed'; request: CodeRequest }
  | { type: 'user.signedIn' }
  | { type: 'freeCall.ended' };

/**
 * The robot check of each code purpose's step (SPEC §5): forgot-password and register send an SMS to any phone
 * typed in, so they always have it; the points code goes to the bill's own phone. Each purpose runs the same
 * send-code flow under its own name in setup() below, with what a right code unlocks (`finish`) given per purpose.
 */
const captchaOf = { 'use-points': 'when asked', 'forgot-password': 'always', register: 'always' } as const satisfies Record<CodePurpose, CaptchaPolicy>;

const codeFlowInput = (context: CheckoutContext, purpose: CodePurpose): CodeFlowInput => ({
  purpose,
  captcha: captchaOf[purpose],
  objectOID: context.bill.objectOID,
  custNo: purpose === 'use-points' ? context.bill.info.CustNo : null,
  draft: context.formDraft?.purpose === purpose ? context.formDraft : null,
});

const selectedType = (context: CheckoutContext): PaymentType | null =>
  context.bill.cardTypes.find((type) => type.OID === context.selectedTypeOid) ?? null;

/** The ticks of the chosen type. */
const agreementsOf = (context: CheckoutContext): Agreements => (context.selectedTypeOid ? context.agreements[context.selectedTypeOid] : undefined) ?? noAgreements;

/** Derived values the views also read (SPEC §3), from services/pricing; money in kopecks. */
export const derive = {
  selectedType,
  commission: (context: CheckoutContext) => commission(context.bill.cardTypes, selectedType(context)),
  finalPrice: (context: CheckoutContext) => finalPrice(context.bill, selectedType(context), context.usedPoints),
  maxPoints: (context: CheckoutContext) => maxSpendablePoints(context.bill),
  emailUsed: (context: CheckoutContext) =>
    emailUsed({ emailError: context.emailError, anotherEmail: context.anotherEmail, bill: context.bill, user: context.user }),
  isCoveredByPoints: (context: CheckoutContext) => isCoveredByPoints(context.bill, context.usedPoints),
  agreements: agreementsOf,
  canUsePoints: (context: CheckoutContext) => canUsePoints(context.bill),
};

/** The bill's open fast-payment attempt, when the page was reloaded on its step and it is one of this bill's types. */
const resumableFastPayment = (context: CheckoutContext) => {
  const open = context.bill.openAttempt;
  if (context.resumePath !== steps.sbp.path || !open?.sbp || open.status !== 'created') return null;
  return context.bill.cardTypes.some((type) => type.OID === open.cardTypeOID) ? { ...open, sbp: open.sbp } : null;
};

/** Whether the bill offers a code purpose's step: points to spend, or the reg step's account flows. */
const offersFlow = (bill: Bill, purpose: CodePurpose) => (purpose === 'use-points' ? canUsePoints(bill) && maxSpendablePoints(bill) > 0 : !bill.noReg);

/** What a reload on the code screen brings back: the code screen with the request, or the step before it. */
interface ResumedCode {
  purpose: CodePurpose;
  at: 'code screen' | 'form';
  request: CodeRequest | null;
}

/**
 * Reloaded on the code screen (issue 17). The server says whether this session's code is still valid (`sentCode`,
 * its phone masked); this tab's draft knows what it was asked for. Both agreeing (purpose, masked phone), the code
 * screen comes back and a right code finishes as without the reload. A points code's phone is the bill's own, so its
 * screen comes back without a draft too, the points then unknown (null). Otherwise the flow known from either goes to
 * its form, the step before; nothing known, or a flow this bill does not offer: null, the main route.
 */
const resumedCode = (context: CheckoutContext): ResumedCode | null => {
  if (context.resumePath !== steps.checkSendCode.path) return null;
  const sent = context.bill.sentCode ?? null;
  const draft = context.codeDraft ?? null;
  const purpose = sent?.purpose ?? draft?.purpose;
  if (!purpose || !offersFlow(context.bill, purpose)) return null;
  const ownDraft = draft?.purpose === purpose ? draft : null;
  if (sent && ownDraft && maskPhone(ownDraft.phone) === sent.phone) return { purpose, at: 'code screen', request: ownDraft };
  if (sent?.purpose === 'use-points') return { purpose, at: 'code screen', request: { purpose: sent.purpose, phone: phoneOf(context.bill, context.user), points: null } };
  return { purpose, at: 'form', request: ownDraft };
};

/** Whether a reload on the code screen brings back `purpose`'s code screen or its form (`resumedCode`). */
const resumesAt = (context: CheckoutContext, at: ResumedCode['at'], purpose: CodePurpose) => {
  const resumed = resumedCode(context);
  return resumed?.at === at && resumed.purpose === purpose;
};

/** The send-code flow's input for a code screen resumed with its request and the server's countdown. */
const resumedFlowInput = (context: CheckoutContext, purpose: CodePurpose): CodeFlowInput => ({
  ...codeFlowInput(context, purpose),
  resume: { request: resumedCode(context)!.request!, secondsLeft: context.bill.sentCode?.secondsLeft ?? 0 },
});

/** 'Попробовать снова': the declined attempt's way to pay, when the bill still offers it. */
const retriedType = (bill: Bill): string | null =>
  bill.retry && bill.cardTypes.some((type) => type.OID === bill.retry!.cardTypeOID) ? bill.retry.cardTypeOID : null;

const isRedirectType = (type: PaymentType | null) => type?.Code === 'ALL' || type?.Code === 'AllSberP';
const isBankAppPay = (type: PaymentType | null) => type?.Code === 'SberPaySite' || type?.Code === 'SberPaySiteP';

export const checkoutMachine = setup({
  types: {
    input: {} as CheckoutInput,
    context: {} as CheckoutContext,
    events: {} as CheckoutEvent,
    tags: {} as 'busy' | 'redirecting' | 'already paid',
    children: {} as {
      signIn: 'signIn';
      code: 'pointsCode' | 'passwordCode' | 'registrationCode';
      freeCall: 'freeCall';
      offer: 'offer';
      paymentStatus: 'paymentStatus';
      bankWidget: 'bankWidget';
    },
  },
  actors: {
    /** Resolves with the accepted e-mail; rejects when the server refuses it. */
    checkEmail: promiseStub<string, { email: string }>('checkEmail'),
    requestPaymentUrl: promiseStub<PaymentUrlResponse, PaymentUrlRequest>('requestPaymentUrl'),
    paymentStatus: paymentStatusMachine,
    bankWidget: bankWidgetMachine,
    offer: offerMachine,
    // The account flows: machines whose own I/O actors stay stubs until the composition root provides them.
    signIn: signInMachine,
    freeCall: freeCallMachine,
    // A right use-points code unlocks nothing on the server: the checkout applies the points itself.
    pointsCode: codeFlowMachine.provide({ actors: { finish: nothingToFinish } }),
    passwordCode: codeFlowMachine,
    registrationCode: codeFlowMachine,
  },
  actions: {
    /** Sends the browser to another page (acquirer form, bank app, result page). */
    'go to url': (_, _params: { url: string }) => notProvided('go to url'),
    'log error': logErrorStub,
    'enter step': assign((_, params: { step: Step }) => ({ step: params.step })),
    'push history': assign({ history: ({ context }) => [...context.history, context.step] }),
    'pop history': assign({ history: ({ context }) => context.history.slice(0, -1) }),
    'clear history': assign({ history: [] }),
    /** The steps a payer passed to reach the resumed step, so that 'Назад' works as before the reload. */
    'restore history': assign(({ context }, params: { through: Step[] }) => ({ history: [context.step, ...params.through] })),
    'resume fast payment': assign(({ context }) => {
      const open = resumableFastPayment(context)!;
      return {
        selectedTypeOid: open.cardTypeOID,
        usedPoints: open.pointsUsed,
        transactionID: open.sbp.qrcId,
        formUrl: open.sbp.payload,
        qrSrc: `data:image/png;base64,${open.sbp.image}`,
      };
    }),
    // Points already applied never exceed what the new bill allows, so the final price cannot drop below zero
    // (the bill is refetched after a sign-in; the reg step has no points today, but the invariant is the pricing's).
    'update session': assign(({ context, event }) => {
      assertEvent(event, 'session.updated');
      const max = maxSpendablePoints(event.bill);
      const pointsToUse = context.pointsToUse === null ? null : clampPoints(context.pointsToUse, max);
      return { bill: event.bill, user: event.user, usedPoints: clampPoints(context.usedPoints, max), pointsToUse };
    }),
    'show problem': assign((_, problem: CheckoutProblem) => ({ problem })),
    'clear problem': assign({ problem: null }),
    'remember e-mail': assign((_, params: { email: string }) => ({ anotherEmail: params.email, emailError: false })),
    'mark e-mail rejected': assign({ emailError: true, anotherEmail: null }),
    // A step that asks for a code starts a fresh send-code flow. It is spawned rather than invoked because it
    // outlives its step: the code screen (and the way back to it from the free-call screen) show the same flow.
    'stop code flow': stopChild('code'),
    'start points code': spawnChild('pointsCode', { id: 'code', input: ({ context }) => codeFlowInput(context, 'use-points') }),
    'start password code': spawnChild('passwordCode', { id: 'code', input: ({ context }) => codeFlowInput(context, 'forgot-password') }),
    // A code screen resumed after a reload (issue 17): the flow starts on it, with the request the page knows.
    'resume points code': spawnChild('pointsCode', { id: 'code', input: ({ context }) => resumedFlowInput(context, 'use-points') }),
    'resume password code': spawnChild('passwordCode', { id: 'code', input: ({ context }) => resumedFlowInput(context, 'forgot-password') }),
    'resume registration code': spawnChild('registrationCode', { id: 'code', input: ({ context }) => resumedFlowInput(context, 'register') }),
    /** The restore or registration form shows again what it had before the reload (its code ran out). */
    'resume form draft': assign(({ context }) => ({ formDraft: resumedCode(context)?.request ?? null })),
    /** The draft is the flow's that ended, or a new code replaced it: the forms start empty from now on. */
    'drop form draft': assign({ formDraft: null }),
    /** The points field shows again what was asked for before the reload (its code ran out, or was never kept). */
    'resume points asked': assign(({ context }) => {
      const draft = resumedCode(context)?.request;
      return draft?.purpose === 'use-points' && draft.points !== null ? { pointsToUse: clampPoints(draft.points, maxSpendablePoints(context.bill)) } : {};
    }),
    /**
     * This tab's draft of the code step (services/codeDraft.ts), kept when a code is sent and forgotten when the flow
     * ends. Provided at the composition root; without storage (here, in tests) nothing is kept and a reload on the code
     * screen goes to the step before, which is what a browser refusing storage gets too.
     */
    'save code draft': (_, _params: { objectOID: string; request: CodeRequest }) => undefined,
    'forget code draft': () => undefined,
    'start registration code': spawnChild('registrationCode', { id: 'code', input: ({ context }) => codeFlowInput(context, 'register') }),
    'apply points': assign(({ context, event }) => {
      assertEvent(event, 'points.use');
      const points = clampPoints(event.points, maxSpendablePoints(context.bill));
      return { usedPoints: points, pointsToUse: points };
    }),
    'remember points to use': assign(({ context, event }) => {
      assertEvent(event, 'points.use');
      return { pointsToUse: clampPoints(event.points, maxSpendablePoints(context.bill)) };
    }),
    'ask for a points code': sendTo('code', ({ context }) => ({
      type: 'code.request' as const,
      request: { purpose: 'use-points' as const, phone: phoneOf(context.bill, context.user), points: context.pointsToUse ?? 0 },
    })),
  },
  guards: {
    'is step': ({ event }, params: { step: PayerOpenedStep }) => event.type === 'nav.goTo' && event.step === params.step,
    'came from step': ({ context }, params: { step: Step }) => context.history.at(-1) === params.step,
    'main route is noReg': ({ context }) => context.bill.noReg,
    /** Reloaded on the fast-payment step with the bill's attempt still waiting: its QR and polling come back. */
    'resumes fast payment': ({ context }) => resumableFastPayment(context) !== null,
    // Reloaded on the code screen: whose code screen comes back (`resumedCode`), or whose form, the step before. One
    // guard per purpose for the screen, since all three go to the same state and the model coverage tells them by name.
    'resumes points code': ({ context }) => resumesAt(context, 'code screen', 'use-points'),
    'resumes restore code': ({ context }) => resumesAt(context, 'code screen', 'forgot-password'),
    'resumes registration code': ({ context }) => resumesAt(context, 'code screen', 'register'),
    'resumes form': ({ context }, params: { purpose: CodePurpose }) => resumesAt(context, 'form', params.purpose),
    /** A points code resumed with no draft in this tab was confirmed: the phone is proven, the points must be chosen again. */
    'is points unknown': ({ event }) => event.type === 'code.confirmed' && event.request.purpose === 'use-points' && event.request.points === null,
    /** Back from a declined payment's 'Попробовать снова', with the e-mail known: straight to choosing again. */
    'is a retry': ({ context }) => !!context.bill.retry && derive.emailUsed(context) !== '',
    'is signed in': ({ context }) => context.user !== null,
    'is e-mail known': ({ context }) => derive.emailUsed(context) !== '',
    'is e-mail given': ({ event }) => event.type === 'checkout.continue' && !!event.email,
    'has no spendable points': ({ context }) => !context.bill.info.CustNo || maxSpendablePoints(context.bill) <= 0,
    'is phone checked': ({ context }) => context.phoneChecked,
    'is covered by points': ({ context }) => derive.isCoveredByPoints(context),
    /** When points cover the bill no type is chosen (SPEC §2), so choosing one is ignored. */
    'is a type needed': ({ context }) => !derive.isCoveredByPoints(context),
    'is an agreement missing': ({ context }) => {
      const type = selectedType(context);
      const ticked = agreementsOf(context);
      return (!!type?.IsShowAggregatorOffer && !ticked.aggregator) || (!!type?.IsShowExecuterOffer && !ticked.executer);
    },
    /** Pay brought an e-mail other than the one the receipt would go to: the server checks it first (SPEC §5). */
    'is e-mail changed': ({ context, event }) => event.type === 'payment.pay' && event.email !== undefined && event.email !== derive.emailUsed(context),
    /** The server's 409 to a payment request: the bill was paid meanwhile (in another tab, or by another payer). */
    'is bill already paid': (_, params: { error: unknown }) => (params.error as { status?: number } | null)?.status === 409,
    'is closed without processing': (_, params: { response: PaymentUrlResponse }) => params.response.isClosedWithoutProcessing === true,
    // Each way to pay needs its own address: the card form, the widget's invoice, or the bank-app link (SPEC §4).
    'has no payment url': ({ context }, params: { response: PaymentUrlResponse }) => {
      const info = params.response.info;
      const type = selectedType(context);
      if (!info?.orderId) return true;
      if (isRedirectType(type)) return !info.formUrl;
      if (isBankAppPay(type)) return !info.bankInvoiceId;
      return !info.data?.payload || !info.data.qrcId;
    },
    'is widget closed': (_, params: { output: BankWidgetOutput }) => params.output.result === 'closed',
    'is card or direct bank': ({ context }) => isRedirectType(selectedType(context)),
    'is bank-app pay': ({ context }) => isBankAppPay(selectedType(context)),
    'is paid': (_, params: { status: string }) => params.status === 'success',
    'is declined': (_, params: { status: string }) => params.status === 'declined',
    'is refunded': (_, params: { status: string }) => params.status === 'refunded',
  },
}).createMachine({
  id: 'checkout',
  description: 'The checkout steps of SPEC §2; every step is a route (steps.ts), history is context.',
  context: ({ input }) => ({
    ...input,
    step: input.bill.noReg ? 'noReg' : 'reg',
    history: [],
    // 'Попробовать снова' keeps the e-mail the declined attempt had (the server checked it then).
    // Only the payer's own attempt prefills the field: anyone else holding the retry link is given the e-mail masked.
    anotherEmail: (input.bill.retry?.ownAttempt && input.bill.retry.email) || null,
    emailError: false,
    formDraft: null,
    pointsToUse: null,
    usedPoints: 0,
    phoneChecked: false,
    sendSmsPhone: '',
    notice: null,
    selectedTypeOid: retriedType(input.bill),
    agreements: {},
    agreementErrors: noAgreements,
    paymentUrlData: null,
    transactionID: null,
    formUrl: null,
    qrSrc: null,
    problem: null,
  }),
  initial: 'start',
  on: {
    'nav.goTo': openedByPayer.map((step) => ({
      guard: { type: 'is step' as const, params: { step } },
      target: `.${step}`,
      actions: ['push history' as const, 'clear problem' as const],
    })),
    'nav.back': returnable.map((step) => ({
      guard: { type: 'came from step' as const, params: { step } },
      target: `.${step}`,
      actions: ['pop history' as const, 'clear problem' as const],
    })),
    'session.updated': { actions: 'update session' },
    'user.signedIn': { actions: sendParent({ type: 'user.signedIn' }) },
    'user.change': { actions: sendParent({ type: 'user.change' }) },
    'code.sent': {
      target: '.checkSendCode',
      actions: [
        'push history',
        assign({ sendSmsPhone: ({ event }) => event.request.phone }),
        'drop form draft',
        { type: 'save code draft', params: ({ context, event }) => ({ objectOID: context.bill.objectOID, request: event.request }) },
      ],
    },
    'code.confirmed': [
      {
        guard: 'is points unknown',
        target: '.usePoints',
        actions: ['forget code draft', assign(({ event }) => unlocked(event.request)), assign({ history: ({ context }) => [context.bill.noReg ? ('noReg' as const) : ('reg' as const)] })],
      },
      { target: '.main', actions: ['forget code draft', assign(({ event }) => unlocked(event.request))] },
    ],
    'freeCall.ended': { target: '.main' },
  },
  states: {
    start: {
      // A reload resumes what the server still has open (issue 17); any other step starts again at the main route,
      // and the address bar follows (it shows the step the checkout is in).
      always: [
        { guard: 'resumes fast payment', target: 'sbp', actions: ['resume fast payment', { type: 'restore history', params: { through: ['choosePaymentType'] } }] },
        // The code screen with its countdown while the code is valid; else the step before it, the flow's form.
        {
          guard: 'resumes points code',
          target: 'checkSendCode',
          actions: ['resume points asked', 'resume points code', { type: 'restore history', params: { through: ['usePoints'] } }],
        },
        {
          guard: 'resumes restore code',
          target: 'checkSendCode',
          actions: ['resume password code', { type: 'restore history', params: { through: ['forgotPassword'] } }],
        },
        {
          guard: 'resumes registration code',
          target: 'checkSendCode',
          actions: ['resume registration code', { type: 'restore history', params: { through: ['register'] } }],
        },
        { guard: { type: 'resumes form', params: { purpose: 'use-points' } }, target: 'usePoints', actions: ['resume points asked', { type: 'restore history', params: { through: [] } }] },
        { guard: { type: 'resumes form', params: { purpose: 'forgot-password' } }, target: 'forgotPassword', actions: ['resume form draft', { type: 'restore history', params: { through: [] } }] },
        { guard: { type: 'resumes form', params: { purpose: 'register' } }, target: 'register', actions: ['resume form draft', { type: 'restore history', params: { through: [] } }] },
        { guard: 'is a retry', target: 'choosePaymentType', actions: { type: 'restore history', params: { through: [] } } },
        { guard: 'main route is noReg', target: 'noReg' },
        { target: 'reg' },
      ],
    },
    /** Goes to the main route with history cleared (after a code check, a free call or applied points). */
    main: {
      entry: 'clear history',
      always: [{ guard: 'main route is noReg', target: 'noReg' }, { target: 'reg' }],
    },
    reg: {
      meta: route('reg'),
      // The main route: a code flow still running (Back from its step) has nothing more to do.
      entry: [{ type: 'enter step', params: { step: 'reg' } }, 'stop code flow', 'forget code draft', 'drop form draft'],
      initial: 'deciding',
      states: {
        deciding: { always: [{ guard: 'is signed in', target: 'signedIn' }, { target: 'signInForm' }] },
        signInForm: {
          invoke: { id: 'signIn', src: 'signIn' },
          on: { 'session.updated': { target: 'deciding', actions: 'update session' } },
        },
        signedIn: {
          on: { 'session.updated': { target: 'deciding', actions: 'update session' } },
          ...emailContinueStates(),
        },
      },
    },
    noReg: {
      meta: route('noReg'),
      entry: [{ type: 'enter step', params: { step: 'noReg' } }, 'stop code flow', 'forget code draft', 'drop form draft'],
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
          entry: ['stop code flow', 'start points code'],
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
      entry: { type: 'enter step', params: { step: 'checkByPhone' } },
      // Reached from a resumed code screen, no code was sent from this page: the draft's phone, the one the code went to.
      invoke: { id: 'freeCall', src: 'freeCall', input: ({ context }) => ({ phone: context.sendSmsPhone || context.codeDraft?.phone || phoneOf(context.bill, context.user) }) },
    },
    forgotPassword: {
      meta: route('forgotPassword'),
      description: 'Starts a fresh send-code flow for a forgot-password code (passwordCode).',
      // SPEC §4: points-to-use is reset first.
      entry: [{ type: 'enter step', params: { step: 'forgotPassword' } }, assign({ pointsToUse: null }), 'stop code flow', 'start password code'],
    },
    register: {
      meta: route('register'),
      description: 'Starts a fresh send-code flow for a register code (registrationCode).',
      entry: [{ type: 'enter step', params: { step: 'register' } }, assign({ pointsToUse: null }), 'stop code flow', 'start registration code'],
    },
    choosePaymentType: {
      meta: route('choosePaymentType'),
      // The first type is preselected, unless points cover the bill and no type is needed (SPEC §2).
      entry: [
        { type: 'enter step', params: { step: 'choosePaymentType' } },
        assign({ agreementErrors: noAgreements }),
        assign({ selectedTypeOid: ({ context }) => (derive.isCoveredByPoints(context) ? null : (context.selectedTypeOid ?? context.bill.cardTypes[0]?.OID ?? null)) }),
      ],
      // The offer modal's text, fetched when an agreement's link is opened (SPEC §2 offer modal).
      invoke: { id: 'offer', src: 'offer', input: ({ context }) => ({ objectOID: context.bill.objectOID }) },
      initial: 'choosing',
      states: {
        choosing: {
          on: {
            'payment.select': {
              guard: 'is a type needed',
              actions: assign({ selectedTypeOid: ({ event }) => event.oid, problem: null, agreementErrors: noAgreements }),
            },
            // Each agreement check clears both error marks (SPEC §5).
            'agreement.set': {
              actions: assign({
                agreements: ({ context, event }) =>
                  context.selectedTypeOid ? { ...context.agreements, [context.selectedTypeOid]: { ...agreementsOf(context), [event.kind]: event.checked } } : context.agreements,
                agreementErrors: noAgreements,
              }),
            },
            'payment.pay': [
              {
                guard: 'is an agreement missing',
                actions: assign({
                  agreementErrors: ({ context }) => {
                    const type = selectedType(context);
                    const ticked = agreementsOf(context);
                    return { aggregator: !!type?.IsShowAggregatorOffer && !ticked.aggregator, executer: !!type?.IsShowExecuterOffer && !ticked.executer };
                  },
                }),
              },
              { guard: 'is e-mail changed', target: 'checkingEmail', actions: 'clear problem' },
              { guard: 'is covered by points', target: 'closingWithPoints', actions: 'clear problem' },
              { target: 'requestingPaymentUrl', actions: 'clear problem' },
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
              target: 'choosing',
              actions: [{ type: 'remember e-mail', params: ({ event }) => ({ email: event.output }) }, raise({ type: 'payment.pay' })],
            },
            onError: { target: 'choosing', actions: 'mark e-mail rejected' },
          },
        },
        alreadyPaid: {
          tags: 'already paid',
          description: "A stale tab: the server says the bill is paid already (409); nothing is left to pay, nor to go back to.",
          entry: 'clear history',
        },
        closingWithPoints: {
          tags: 'busy',
          invoke: {
            src: 'requestPaymentUrl',
            input: ({ context }) => paymentRequest(context),
            onDone: [
              {
                guard: { type: 'is closed without processing', params: ({ event }) => ({ response: event.output }) },
                target: 'redirecting',
                actions: {
                  type: 'go to url',
                  params: ({ context, event }) => ({
                    url: `/success?withoutProcessing=1&billOid=${encodeURIComponent(context.bill.objectOID)}&orderId=${encodeURIComponent(event.output.info?.orderId ?? '')}`,
                  }),
                },
              },
              { target: 'choosing', actions: { type: 'show problem', params: 'close with points failed' } },
            ],
            onError: [
              { guard: { type: 'is bill already paid', params: ({ event }) => ({ error: event.error }) }, target: 'alreadyPaid' },
              { target: 'choosing', actions: [{ type: 'log error', params: errorOf }, { type: 'show problem', params: 'close with points failed' }] },
            ],
          },
        },
        requestingPaymentUrl: {
          tags: 'busy',
          invoke: {
            src: 'requestPaymentUrl',
            input: ({ context }) => paymentRequest(context),
            onDone: [
              {
                guard: { type: 'has no payment url', params: ({ event }) => ({ response: event.output }) },
                target: 'choosing',
                actions: { type: 'show problem', params: 'no payment url' },
              },
              {
                guard: 'is card or direct bank',
                target: 'redirecting',
                actions: [
                  assign({ paymentUrlData: ({ event }) => event.output }),
                  { type: 'go to url', params: ({ event }) => ({ url: event.output.info!.formUrl! }) },
                ],
              },
              {
                guard: 'is bank-app pay',
                target: 'bankWidget',
                actions: assign({ paymentUrlData: ({ event }) => event.output, transactionID: ({ event }) => event.output.info!.orderId! }),
              },
              {
                // Fast payment: remember the bank-app link, the QR and the transaction, then show the sbp step.
                target: '#checkout.sbp',
                actions: [
                  assign({
                    paymentUrlData: ({ event }) => event.output,
                    formUrl: ({ event }) => event.output.info?.data?.payload ?? null,
                    transactionID: ({ event }) => event.output.info?.data?.qrcId ?? event.output.info?.orderId ?? null,
                    qrSrc: ({ event }) => {
                      const content = event.output.info?.data?.image?.content;
                      return content ? `data:image/png;base64,${content}` : null;
                    },
                  }),
                  'push history',
                ],
              },
            ],
            onError: [
              { guard: { type: 'is bill already paid', params: ({ event }) => ({ error: event.error }) }, target: 'alreadyPaid' },
              { target: 'choosing', actions: [{ type: 'log error', params: errorOf }, { type: 'show problem', params: 'no payment url' }] },
            ],
          },
        },
        bankWidget: {
          tags: 'busy',
          // The widget machine turns every failure of its own (no overlay, time-out, widget.error) into its `fail`.
          invoke: {
            id: 'bankWidget',
            src: 'bankWidget',
            input: ({ context }) => ({
              code: selectedType(context)?.Code ?? 'SberPaySite',
              bankInvoiceId: context.paymentUrlData?.info?.bankInvoiceId ?? '',
              orderId: context.paymentUrlData?.info?.orderId ?? '',
              billOid: context.bill.objectOID,
              isDesktop: context.isDesktop,
            }),
            // The widget itself sends the browser to the success or fail URL; a closed widget lets the payer choose again.
            onDone: [
              { guard: { type: 'is widget closed', params: ({ event }) => ({ output: event.output }) }, target: 'choosing' },
              { target: 'redirecting' },
            ],
          },
        },
        redirecting: { tags: ['busy', 'redirecting'] },
      },
    },
    sbp: {
      meta: route('sbp'),
      entry: { type: 'enter step', params: { step: 'sbp' } },
      invoke: {
        id: 'paymentStatus',
        src: 'paymentStatus',
        // A phone payer goes to the bank app, which hides this tab: polling goes on meanwhile (issue 18).
        input: ({ context }) => ({ transactionID: context.transactionID ?? '', billOID: context.bill.objectOID, keepPollingWhenHidden: !context.isDesktop }),
        // The result replaces the fast-payment step (issue 17): its payment is settled, so Back never returns to it.
        // Paid, there is nowhere to go back to; declined, Back goes to choose another way to pay.
        onDone: [
          { guard: { type: 'is paid', params: ({ event }) => ({ status: event.output.status }) }, target: 'result', actions: 'clear history' },
          { guard: { type: 'is declined', params: ({ event }) => ({ status: event.output.status }) }, target: 'result' },
          // Paid twice: the bill is paid (by the other payment), so there is nothing to go back to either.
          { guard: { type: 'is refunded', params: ({ event }) => ({ status: event.output.status }) }, target: 'result', actions: 'clear history' },
        ],
      },
    },
    result: {
      meta: route('result'),
      entry: { type: 'enter step', params: { step: 'result' } },
      invoke: {
        id: 'paymentStatus',
        src: 'paymentStatus',
        input: ({ context }) => ({ transactionID: context.transactionID ?? '', billOID: context.bill.objectOID }),
      },
    },
  },
});

/** What a confirmed code changes in the checkout, by what it was for (SPEC §4 code check flow). */
function unlocked(request: CodeRequest): Partial<CheckoutContext> {
  switch (request.purpose) {
    case 'use-points':
      return request.points === null ? { phoneChecked: true } : { usedPoints: request.points, pointsToUse: request.points, phoneChecked: true };
    case 'forgot-password':
      return { notice: 'new password sent' };
    case 'register':
      return { notice: 'registration success' };
  }
}

/** The e-mail form and Continue of the reg and noReg steps (SPEC §2, §5). */
function emailContinueStates() {
  return {
    initial: 'editing' as const,
    states: {
      editing: {
        on: {
          'checkout.continue': [
            { guard: 'is e-mail given' as const, target: 'checkingEmail' as const },
            { guard: 'is e-mail known' as const, target: '#checkout.choosePaymentType', actions: ['push history' as const, 'clear problem' as const] },
          ],
        },
      },
      checkingEmail: {
        tags: 'busy' as const,
        description: 'The server checks the e-mail; a refusal empties the field and shows "Email некорректен".',
        invoke: {
          src: 'checkEmail' as const,
          input: ({ event }: { event: CheckoutEvent }) => ({ email: event.type === 'checkout.continue' ? (event.email ?? '') : '' }),
          onDone: {
            target: '#checkout.choosePaymentType',
            actions: [
              { type: 'remember e-mail' as const, params: ({ event }: { event: DoneActorEvent<string> }) => ({ email: event.output }) },
              'push history' as const,
              'clear problem' as const,
            ],
          },
          onError: { target: 'editing' as const, actions: 'mark e-mail rejected' as const },
        },
      },
    },
  };
}

function paymentRequest(context: CheckoutContext): PaymentUrlRequest {
  return {
    objectOID: context.bill.objectOID,
    pointsSum: context.usedPoints > 0 ? context.usedPoints : null,
    cardTypeOID: context.selectedTypeOid,
    email: derive.emailUsed(context),
    userOID: context.user?.oid ?? null,
  };
}

export type CheckoutActor = ActorRefFrom<typeof checkoutMachine>;
