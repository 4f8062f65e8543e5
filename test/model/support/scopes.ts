import type { AnyStateMachine } from 'xstate';
import { appMachine } from '../../../src/machines/app';
import { bankWidgetMachine } from '../../../src/machines/bankWidget';
import { checkoutMachine } from '../../../src/machines/checkout';
import { codeFlowMachine } from '../../../src/machines/codeFlow';
import { freeCallMachine } from '../../../src/machines/freeCall';
import { offerMachine } from '../../../src/machines/offer';
import { paymentMachine } from '../../../src/machines/payment';
import { paymentStatusMachine } from '../../../src/machines/paymentStatus';
import { signInMachine } from '../../../src/machines/signIn';
import type { FlowScope, Item } from './coverage';

export const flows = [
  'anonymous-payment',
  'signed-in-payment',
  'points-sms',
  'registration',
  'password-restore',
  'free-call',
  'payment-status',
  'bank-widget',
] as const;
export type Flow = (typeof flows)[number];

/** Every real machine of the page (the root and everything it invokes). */
export const realMachines: AnyStateMachine[] = [
  appMachine,
  checkoutMachine,
  paymentMachine,
  paymentStatusMachine,
  bankWidgetMachine,
  offerMachine,
  signInMachine,
  codeFlowMachine,
  freeCallMachine,
];

/** The flow that reaches a navigation to (or back to) a step. */
const stepOwner: Record<string, Flow> = {
  usePoints: 'points-sms',
  checkSendCode: 'free-call',
  checkByPhone: 'free-call',
  forgotPassword: 'password-restore',
  register: 'registration',
  account: 'registration',
  sbp: 'payment-status',
  choosePaymentType: 'payment-status',
  result: 'payment-status',
};

function checkoutOwner(item: Item): Flow {
  const node = item.node;
  // A step the payer asks for opens through `opening`: its way on to the step is that step's flow's; the page opening
  // on a later step (back to start) and the code's loading, loss and retry are the anonymous payer's.
  if (node === 'checkout.opening.going') {
    const step = (item.targets?.[0] ?? '').replace('checkout.', '');
    return stepOwner[step] ?? 'anonymous-payment';
  }
  if (node === 'checkout' && item.kind === 'transition') {
    const event = item.event ?? '';
    // The points button is the first step's link; Back is every flow's, the anonymous payer's first.
    if (event === 'nav.goTo') return 'points-sms';
    if (event === 'nav.back') return 'anonymous-payment';
    if (['session.updated', 'user.signedIn', 'user.change'].includes(event)) return 'signed-in-payment';
    if (['code.sent', 'code.confirmed'].includes(event)) return 'points-sms';
    if (event === 'freeCall.ended') return 'free-call';
    return 'anonymous-payment';
  }
  // Going to the main route: a points bill's is the guest step, an account flow's the account step.
  if (node === 'checkout.main') return item.targets?.includes('checkout.account') ? 'password-restore' : 'points-sms';
  if (node === 'checkout.start') {
    // A reload on the code screen resumes the flow whose code is still valid, or its form.
    const resumed = item.targets?.[0]?.replace('checkout.', '');
    if (resumed === 'checkSendCode' || resumed === 'usePoints') return 'points-sms';
    if (resumed === 'forgotPassword') return 'password-restore';
    if (resumed === 'register') return 'registration';
    if (resumed === 'checkByPhone') return 'free-call';
    if (resumed === 'result') return 'payment-status';
    return item.targets?.includes('checkout.account') ? 'signed-in-payment' : 'anonymous-payment';
  }
  // Giving the points up on the way-to-pay step is the points' flow.
  if (item.event === 'points.clear') return 'points-sms';
  if (node.startsWith('checkout.account')) return 'signed-in-payment';
  if (node.startsWith('checkout.usePoints') || node.startsWith('checkout.checkSendCode')) return 'points-sms';
  if (node.startsWith('checkout.checkByPhone')) return 'free-call';
  if (node.startsWith('checkout.forgotPassword')) return 'password-restore';
  if (node.startsWith('checkout.register')) return 'registration';
  if (node.startsWith('checkout.sbp') || node.startsWith('checkout.result')) return 'payment-status';
  return 'anonymous-payment';
}

/** Paying: the bank-app pay widget is the bank widget's; closing the bill with points the points'; the rest the card's. */
function paymentOwner(item: Item): Flow {
  const at = (state: string) => item.node.startsWith(`payment.${state}`) || !!item.targets?.includes(`payment.${state}`);
  if (at('bankWidget') || at('widgetClosed')) return 'bank-widget';
  if (item.guard === 'is closed by points' || item.guard === 'closes with points') return 'points-sms';
  return 'anonymous-payment';
}

/** The send-code flow: a failed finish (the reset or the registration refused) is the registration's; the rest the points'. */
function codeFlowOwner(item: Item): Flow {
  if (item.node.includes('finishFailed') || item.targets?.some((target) => target.includes('finishFailed'))) return 'registration';
  return 'points-sms';
}

/** Which flow must reach an item: every state and transition of every real machine has exactly one owner. */
export function ownerOf(item: Item): Flow {
  switch (item.machine) {
    case 'app':
      return /refreshing|loggingOut|content\.ready/.test(item.node) ? 'signed-in-payment' : 'anonymous-payment';
    case 'checkout':
      return checkoutOwner(item);
    case 'codeFlow':
      return codeFlowOwner(item);
    case 'signIn':
      return 'signed-in-payment';
    case 'freeCall':
      return 'free-call';
    case 'paymentStatus':
      return 'payment-status';
    case 'bankWidget':
      return 'bank-widget';
    case 'payment':
      return paymentOwner(item);
    case 'offer':
      return 'anonymous-payment';
    default:
      throw new Error(`no flow owns machine ${item.machine}`);
  }
}

export const scopeOf = (flow: Flow, machines: AnyStateMachine[] = realMachines): FlowScope => ({
  machines,
  owns: (item) => ownerOf(item) === flow,
});
