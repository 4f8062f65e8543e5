import { assign, sendParent, setup, type ActorRefFrom } from 'xstate';
import { canUsePoints, commission, emailUsed, finalPrice } from '../services/pricing';
import { messages } from '../services/messages';
import type { Bill, CheckType, LoyaltyUser, PaymentType, PaymentUrlRequest, PaymentUrlResponse, RegisterForm } from '../services/types';
import { bankWidgetMachine, type BankWidgetOutput } from './bankWidget';
import { offerMachine } from './offer';
import { paymentStatusMachine } from './paymentStatus';
import { codeCheckMachine } from './codeCheck';
import { forgotPasswordMachine } from './forgotPassword';
import { freeCallMachine } from './freeCall';
import { registerMachine } from './register';
import { signInMachine } from './signIn';
import { notProvided, promiseStub } from './stub';
import { usePointsMachine } from './usePoints';

/** The steps of SPEC §2. Each is a state whose `meta.route` names its route (DESIGN §4: a route is a state). */
export const steps = [
  'reg',
  'noReg',
  'usePoints',
  'checkSendCode',
  'checkByPhone',
  'choosePaymentType',
  'sbp',
  'result',
  'forgotPassword',
  'register',
] as const;
export type Step = (typeof steps)[number];

/** Steps the payer opens by a link or button; the others are reached by the flow itself (continue, pay, codes). */
export const openedByPayer = ['usePoints', 'checkByPhone', 'forgotPassword', 'register'] as const satisfies readonly Step[];
export type PayerOpenedStep = (typeof openedByPayer)[number];

/** Steps that are left forward (they push history), so 'Back' can return to them; checkByPhone and result never are. */
const returnable = ['reg', 'noReg', 'usePoints', 'checkSendCode', 'choosePaymentType', 'sbp', 'forgotPassword', 'register'] as const satisfies readonly Step[];

export interface RouteMeta {
  route: { name: string; path: string };
}
const route = (name: string): RouteMeta => ({ route: { name, path: `/${name}` } });

export interface CheckoutInput {
  bill: Bill;
  user: LoyaltyUser | null;
  /** Desktop or phone, decided from the browser at the composition root (viewport and pointer). */
  isDesktop: boolean;
}

export interface CheckoutContext extends CheckoutInput {
  /** The step shown now, kept so that navigation can remember where it came from. */
  step: Step;
  /** Steps to go back to, newest last; the 'Back' link is hidden when it is empty. */
  history: Step[];
  anotherEmail: string | null;
  emailError: boolean;
  pointsToUse: number | null;
  usedPoints: number;
  phoneChecked: boolean;
  sendSmsPhone: string;
  checkType: CheckType | null;
  registerForm: RegisterForm | null;
  notice: 'new password sent' | 'registration success' | null;
  selectedTypeOid: string | null;
  agreements: { aggregator: boolean; executer: boolean };
  agreementErrors: { aggregator: boolean; executer: boolean };
  paymentUrlData: PaymentUrlResponse | null;
  transactionID: string | null;
  formUrl: string | null;
  qrSrc: string | null;
  /** A message for the payer on the current step (may be HTML per SPEC §8; only our own catalogue texts). */
  error: string | null;
}

export type CheckoutEvent =
  | { type: 'nav.goTo'; step: PayerOpenedStep }
  | { type: 'nav.back' }
  | { type: 'session.updated'; bill: Bill; user: LoyaltyUser | null }
  | { type: 'checkout.continue'; email?: string }
  | { type: 'user.change' }
  | { type: 'payment.select'; oid: string }
  | { type: 'agreement.set'; kind: 'aggregator' | 'executer'; checked: boolean }
  | { type: 'payment.pay' }
  // From the step flows:
  | { type: 'points.apply'; points: number }
  | { type: 'code.required'; checkType: CheckType; phone: string; pointsToUse?: number | null; registerForm?: RegisterForm | null }
  | { type: 'code.confirmed'; checkType: CheckType }
  | { type: 'user.signedIn' }
  | { type: 'freeCall.ended' };

/** What the step flows get from the checkout when they start. */
export interface StepFlowInput {
  bill: Bill;
  user: LoyaltyUser | null;
  phone: string;
  phoneChecked: boolean;
  checkType: CheckType | null;
  pointsToUse: number | null;
  registerForm: RegisterForm | null;
  maxPoints: number;
}

export type { BankWidgetInput, BankWidgetOutput } from './bankWidget';

const selectedType = (context: CheckoutContext): PaymentType | null =>
  context.bill.cardTypes.find((type) => type.OID === context.selectedTypeOid) ?? null;

/** Derived values the views also read, from one place. */
export const derive = {
  selectedType,
  commission: (context: CheckoutContext) => commission(context.bill.cardTypes, selectedType(context)),
  finalPrice: (context: CheckoutContext) =>
    finalPrice(context.bill.info.Summ, commission(context.bill.cardTypes, selectedType(context)), context.usedPoints),
  emailUsed: (context: CheckoutContext) =>
    emailUsed({ emailError: context.emailError, anotherEmail: context.anotherEmail, bill: context.bill, user: context.user }),
  isCoveredByPoints: (context: CheckoutContext) =>
    context.usedPoints > 0 && finalPrice(context.bill.info.Summ, commission(context.bill.cardTypes, null), context.usedPoints) <= 0,
  canUsePoints: (context: CheckoutContext) => canUsePoints(context.bill),
};

const isRedirectType = (type: PaymentType | null) => type?.Code === 'ALL' || type?.Code === 'AllSberP';
const isBankAppPay = (type: PaymentType | null) => type?.Code === 'SberPaySite' || type?.Code === 'SberPaySiteP';

export const checkoutMachine = setup({
  types: {
    input: {} as CheckoutInput,
    context: {} as CheckoutContext,
    events: {} as CheckoutEvent,
    tags: {} as 'busy' | 'redirecting',
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
    usePoints: usePointsMachine,
    codeCheck: codeCheckMachine,
    freeCall: freeCallMachine,
    forgotPassword: forgotPasswordMachine,
    register: registerMachine,
  },
  actions: {
    /** Sends the browser to another page (acquirer form, bank app, result page). */
    'go to url': (_, _params: { url: string }) => notProvided('go to url'),
    'log error': (_, _params: { error: unknown }) => notProvided('log error'),
    'push history': assign({ history: ({ context }) => [...context.history, context.step] }),
    'pop history': assign({ history: ({ context }) => context.history.slice(0, -1) }),
    'clear history': assign({ history: [] }),
    'select first type': assign({ selectedTypeOid: ({ context }) => context.bill.cardTypes[0]?.OID ?? null }),
    'clear error': assign({ error: null }),
    'show negative sum error': assign({ error: messages.choosePaymentType.negativeSum }),
    'remember e-mail': assign(({ event }) => ({ anotherEmail: (event as unknown as { output: string }).output, emailError: false })),
    'mark e-mail rejected': assign({ emailError: true, anotherEmail: null }),
  },
  guards: {
    'is step': ({ event }, params: { step: PayerOpenedStep }) => event.type === 'nav.goTo' && event.step === params.step,
    'came from step': ({ context }, params: { step: Step }) => context.history.at(-1) === params.step,
    'main route is noReg': ({ context }) => context.bill.noReg,
    'is signed in': ({ context }) => context.user !== null,
    'is final price below zero': ({ context }) => derive.finalPrice(context) < 0,
    'is e-mail known': ({ context }) => derive.emailUsed(context) !== '',
    'is e-mail given': ({ event }) => event.type === 'checkout.continue' && !!event.email,
    'is covered by points': ({ context }) => derive.isCoveredByPoints(context),
    /** When points cover the bill no type is chosen (SPEC §2), so choosing one is ignored. */
    'is a type needed': ({ context }) => !derive.isCoveredByPoints(context),
    'is an agreement missing': ({ context }) => {
      const type = selectedType(context);
      return (!!type?.IsShowAggregatorOffer && !context.agreements.aggregator) || (!!type?.IsShowExecuterOffer && !context.agreements.executer);
    },
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
    'is paid': (_, params: { status: string }) => params.status === 'success' || params.status === 'declined',
  },
}).createMachine({
  id: 'checkout',
  description: 'The checkout steps of SPEC §2; every step is a route, history is context.',
  context: ({ input }) => ({
    ...input,
    step: input.bill.noReg ? 'noReg' : 'reg',
    history: [],
    anotherEmail: null,
    emailError: false,
    pointsToUse: null,
    usedPoints: 0,
    phoneChecked: false,
    sendSmsPhone: '',
    checkType: null,
    registerForm: null,
    notice: null,
    selectedTypeOid: null,
    agreements: { aggregator: false, executer: false },
    agreementErrors: { aggregator: false, executer: false },
    paymentUrlData: null,
    transactionID: null,
    formUrl: null,
    qrSrc: null,
    error: null,
  }),
  initial: 'start',
  on: {
    'nav.goTo': openedByPayer.map((step) => ({
      guard: { type: 'is step' as const, params: { step } },
      target: `.${step}`,
      actions: ['push history' as const, 'clear error' as const],
    })),
    'nav.back': returnable.map((step) => ({
      guard: { type: 'came from step' as const, params: { step } },
      target: `.${step}`,
      actions: ['pop history' as const, 'clear error' as const],
    })),
    'session.updated': { actions: assign({ bill: ({ event }) => event.bill, user: ({ event }) => event.user }) },
    'user.signedIn': { actions: sendParent({ type: 'user.signedIn' }) },
    'user.change': { actions: sendParent({ type: 'user.change' }) },
    'points.apply': {
      target: '.main',
      actions: assign({ usedPoints: ({ event }) => event.points, pointsToUse: ({ event }) => event.points }),
    },
    'code.required': {
      target: '.checkSendCode',
      actions: [
        'push history',
        assign({
          checkType: ({ event }) => event.checkType,
          sendSmsPhone: ({ event }) => event.phone,
          pointsToUse: ({ event, context }) => (event.pointsToUse === undefined ? context.pointsToUse : event.pointsToUse),
          registerForm: ({ event, context }) => event.registerForm ?? context.registerForm,
        }),
      ],
    },
    'code.confirmed': {
      target: '.main',
      actions: assign(({ context, event }) => {
        switch (event.checkType) {
          case 'use-points':
            return { usedPoints: context.pointsToUse ?? 0, phoneChecked: true };
          case 'forgot-password':
            return { notice: 'new password sent' as const };
          case 'register':
            return { notice: 'registration success' as const };
        }
      }),
    },
    'freeCall.ended': { target: '.main' },
  },
  states: {
    start: {
      always: [{ guard: 'main route is noReg', target: 'noReg' }, { target: 'reg' }],
    },
    /** Goes to the main route with history cleared (after a code check, a free call or applied points). */
    main: {
      entry: 'clear history',
      always: [{ guard: 'main route is noReg', target: 'noReg' }, { target: 'reg' }],
    },
    reg: {
      meta: route('reg'),
      entry: assign({ step: 'reg' }),
      initial: 'deciding',
      states: {
        deciding: { always: [{ guard: 'is signed in', target: 'signedIn' }, { target: 'signInForm' }] },
        signInForm: {
          invoke: { id: 'signIn', src: 'signIn', input: ({ context }) => flowInput(context) },
          on: { 'session.updated': { target: 'deciding', actions: assign({ bill: ({ event }) => event.bill, user: ({ event }) => event.user }) } },
        },
        signedIn: {
          on: { 'session.updated': { target: 'deciding', actions: assign({ bill: ({ event }) => event.bill, user: ({ event }) => event.user }) } },
          ...emailContinueStates(),
        },
      },
    },
    noReg: {
      meta: route('noReg'),
      entry: assign({ step: 'noReg' }),
      ...emailContinueStates(),
    },
    usePoints: {
      meta: route('usePoints'),
      entry: assign({ step: 'usePoints' }),
      invoke: { id: 'usePoints', src: 'usePoints', input: ({ context }) => flowInput(context) },
    },
    checkSendCode: {
      meta: route('checkSendCode'),
      entry: assign({ step: 'checkSendCode' }),
      invoke: { id: 'codeCheck', src: 'codeCheck', input: ({ context }) => flowInput(context) },
    },
    checkByPhone: {
      meta: route('checkByPhone'),
      entry: assign({ step: 'checkByPhone' }),
      invoke: { id: 'freeCall', src: 'freeCall', input: ({ context }) => flowInput(context) },
    },
    forgotPassword: {
      meta: route('forgot-password'),
      entry: [assign({ step: 'forgotPassword', pointsToUse: null })],
      invoke: { id: 'forgotPassword', src: 'forgotPassword', input: ({ context }) => flowInput(context) },
    },
    register: {
      meta: route('register'),
      entry: [assign({ step: 'register', pointsToUse: null })],
      invoke: { id: 'register', src: 'register', input: ({ context }) => flowInput(context) },
    },
    choosePaymentType: {
      meta: route('choosePaymentType'),
      // The first type is preselected, unless points cover the bill and no type is needed (SPEC §2).
      entry: [
        assign({ step: 'choosePaymentType', agreementErrors: { aggregator: false, executer: false } }),
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
              actions: assign({ selectedTypeOid: ({ event }) => event.oid, error: null, agreements: { aggregator: false, executer: false } }),
            },
            // Each agreement check clears both error marks (SPEC §5).
            'agreement.set': {
              actions: assign({
                agreements: ({ context, event }) => ({ ...context.agreements, [event.kind]: event.checked }),
                agreementErrors: { aggregator: false, executer: false },
              }),
            },
            'payment.pay': [
              { guard: 'is final price below zero', actions: assign({ error: messages.choosePaymentType.negativeSum }) },
              { guard: 'is covered by points', target: 'closingWithPoints', actions: 'clear error' },
              {
                guard: 'is an agreement missing',
                actions: assign({
                  agreementErrors: ({ context }) => {
                    const type = selectedType(context);
                    return { aggregator: !!type?.IsShowAggregatorOffer && !context.agreements.aggregator, executer: !!type?.IsShowExecuterOffer && !context.agreements.executer };
                  },
                }),
              },
              { target: 'requestingPaymentUrl', actions: 'clear error' },
            ],
          },
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
              { target: 'choosing', actions: assign({ error: messages.choosePaymentType.closeWithPointsFailed }) },
            ],
            onError: {
              target: 'choosing',
              actions: [{ type: 'log error', params: ({ event }) => ({ error: event.error }) }, assign({ error: messages.choosePaymentType.closeWithPointsFailed })],
            },
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
                actions: assign({ error: messages.choosePaymentType.noPaymentUrl }),
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
            onError: {
              target: 'choosing',
              actions: [{ type: 'log error', params: ({ event }) => ({ error: event.error }) }, assign({ error: messages.choosePaymentType.noPaymentUrl })],
            },
          },
        },
        bankWidget: {
          tags: 'busy',
          invoke: {
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
            onError: {
              target: 'redirecting',
              actions: [{ type: 'log error', params: ({ event }) => ({ error: event.error }) }, { type: 'go to url', params: ({ context }) => ({ url: resultUrl(context, 'fail') }) }],
            },
          },
        },
        redirecting: { tags: ['busy', 'redirecting'] },
      },
    },
    sbp: {
      meta: route('sbp'),
      entry: assign({ step: 'sbp' }),
      invoke: {
        id: 'paymentStatus',
        src: 'paymentStatus',
        // A phone payer goes to the bank app, which hides this tab: polling goes on meanwhile (issue 18).
        input: ({ context }) => ({ transactionID: context.transactionID ?? '', billOID: context.bill.objectOID, keepPollingWhenHidden: !context.isDesktop }),
        onDone: {
          guard: { type: 'is paid', params: ({ event }) => ({ status: event.output.status }) },
          target: 'result',
          actions: 'push history',
        },
      },
    },
    result: {
      meta: route('result'),
      entry: assign({ step: 'result' }),
      invoke: {
        id: 'paymentStatus',
        src: 'paymentStatus',
        input: ({ context }) => ({ transactionID: context.transactionID ?? '', billOID: context.bill.objectOID }),
      },
    },
  },
});

/** The e-mail form and Continue of the reg and noReg steps (SPEC §2, §5). */
function emailContinueStates() {
  return {
    initial: 'editing' as const,
    states: {
      editing: {
        on: {
          'checkout.continue': [
            { guard: 'is final price below zero' as const, actions: 'show negative sum error' as const },
            { guard: 'is e-mail given' as const, target: 'checkingEmail' as const },
            { guard: 'is e-mail known' as const, target: '#checkout.choosePaymentType', actions: ['push history' as const, 'clear error' as const] },
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
            actions: ['remember e-mail' as const, 'push history' as const, 'clear error' as const],
          },
          onError: { target: 'editing' as const, actions: 'mark e-mail rejected' as const },
        },
      },
    },
  };
}

function flowInput(context: CheckoutContext): StepFlowInput {
  const sumWithFee = context.bill.info.Summ + commission(context.bill.cardTypes, null);
  return {
    bill: context.bill,
    user: context.user,
    phone: context.sendSmsPhone || context.bill.user.Phone || context.user?.phone || '',
    phoneChecked: context.phoneChecked,
    checkType: context.checkType,
    pointsToUse: context.pointsToUse,
    registerForm: context.registerForm,
    maxPoints: Math.max(0, Math.floor(Math.min(context.bill.usefulPoints, sumWithFee))),
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

function resultUrl(context: CheckoutContext, result: 'success' | 'fail') {
  const orderId = context.paymentUrlData?.info?.orderId ?? '';
  return `/${result}?orderId=${encodeURIComponent(orderId)}&billOid=${encodeURIComponent(context.bill.objectOID)}`;
}

export type CheckoutActor = ActorRefFrom<typeof checkoutMachine>;
