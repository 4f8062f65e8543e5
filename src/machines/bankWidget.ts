import { assign, not, setup } from 'xstate';
import type { WidgetReport } from '../widget/client';
import { callbackStub, errorOf, logErrorStub, notProvided } from './stub';

/** What the checkout hands the widget: the attempt to pay and the kind of browser. */
export interface BankWidgetInput {
  /** SberPaySite or SberPaySiteP. */
  code: string;
  bankInvoiceId: string;
  orderId: string;
  billOid: string;
  /** Desktop (iframe overlay) or phone (full-page redirect), decided from the browser at the composition root. */
  isDesktop: boolean;
}

/** 'closed': the payer closed the widget without paying and goes back to choosing a payment type. */
export type BankWidgetOutput = { result: 'success' | 'fail' | 'closed' };

/** What the widget client reports (src/widget): ready, the payer's outcome, a close, or an error of its own. */
export type BankWidgetEvent = WidgetReport;

export interface BankWidgetContext extends BankWidgetInput {
  result: BankWidgetOutput['result'];
}

/** The widget must initialise within 20000 ms, else the payment fails. */
export const WIDGET_INIT_TIMEOUT_MS = 20_000;

/**
 * The bank-app pay widget: a phone leaves for the widget's page; a desktop opens it in an iframe
 * overlay (desktop Safari also opens the helper tab first) and waits for it to initialise, then for the payer's
 * outcome. Success and fail close the widget and send the browser to the return URL; closing returns the payer
 * to choosing a payment type.
 */
export const bankWidgetMachine = setup({
  types: {
    input: {} as BankWidgetInput,
    context: {} as BankWidgetContext,
    events: {} as BankWidgetEvent,
    output: {} as BankWidgetOutput,
    tags: {} as 'loading' | 'open' | 'redirecting',
  },
  actors: {
    /** Opens the overlay and speaks the message protocol; reports BankWidgetEvent; its cleanup closes the overlay. */
    widget: callbackStub<BankWidgetInput>('widget'),
  },
  actions: {
    /** Mobile: the whole page goes to the widget with the base64 parameter bundle. */
    'redirect to widget': (_, _params: BankWidgetInput) => notProvided('redirect to widget'),
    'open helper tab': (_, _params: BankWidgetInput) => notProvided('open helper tab'),
    /** Sends the browser to the return URL of the outcome (success URL or fail URL). */
    'go to return url': (_, _params: BankWidgetInput & { outcome: 'success' | 'fail' }) => notProvided('go to return url'),
    'log error': logErrorStub,
  },
  guards: {
    'is desktop': ({ context }) => context.isDesktop,
    /** Injected from the browser environment (env.isSafariDesktop). */
    'is Safari desktop': () => notProvided('is Safari desktop'),
  },
  delays: {
    'widget initialisation time-out': WIDGET_INIT_TIMEOUT_MS,
  },
}).createMachine({
  id: 'bankWidget',
  description: 'The bank-app pay widget: iframe overlay on desktop (plus a helper tab in desktop Safari), a redirect on phones.',
  context: ({ input }) => ({ ...input, result: 'fail' }),
  initial: 'choosingPlatform',
  states: {
    choosingPlatform: {
      always: [
        { guard: not('is desktop'), target: 'redirecting' },
        // The helper tab must open before the frame asks for the bank's cookies (and while the click still counts).
        { guard: 'is Safari desktop', target: 'widget', actions: { type: 'open helper tab', params: ({ context }) => inputOf(context) } },
        { target: 'widget' },
      ],
    },
    redirecting: {
      description: 'Phone: the page leaves for the widget, which comes back to the return URL.',
      tags: 'redirecting',
      entry: { type: 'redirect to widget', params: ({ context }) => inputOf(context) },
    },
    widget: {
      invoke: { id: 'widget', src: 'widget', input: ({ context }) => inputOf(context) },
      initial: 'loading',
      states: {
        loading: {
          tags: 'loading',
          after: {
            'widget initialisation time-out': {
              target: '#bankWidget.fail',
              actions: { type: 'log error', params: { error: new Error('The bank widget did not initialise in time') } },
            },
          },
          on: { 'widget.ready': 'open' },
        },
        open: { tags: 'open' },
      },
      on: {
        'widget.success': 'success',
        'widget.fail': 'fail',
        'widget.closed': 'closed',
        'widget.error': { target: 'fail', actions: { type: 'log error', params: errorOf } },
      },
    },
    success: {
      type: 'final',
      entry: [assign({ result: 'success' }), { type: 'go to return url', params: ({ context }) => ({ ...inputOf(context), outcome: 'success' as const }) }],
    },
    fail: {
      type: 'final',
      entry: [assign({ result: 'fail' }), { type: 'go to return url', params: ({ context }) => ({ ...inputOf(context), outcome: 'fail' as const }) }],
    },
    closed: {
      type: 'final',
      entry: assign({ result: 'closed' }),
    },
  },
  output: ({ context }) => ({ result: context.result }),
});

function inputOf(context: BankWidgetContext): BankWidgetInput {
  return { code: context.code, bankInvoiceId: context.bankInvoiceId, orderId: context.orderId, billOid: context.billOid, isDesktop: context.isDesktop };
}
