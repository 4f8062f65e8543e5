import type { AnyStateMachine } from 'xstate';
import { appMachine } from '../../../src/machines/app';
import { bankWidgetMachine } from '../../../src/machines/bankWidget';
import { checkoutMachine } from '../../../src/machines/checkout';
import { codeCheckMachine } from '../../../src/machines/codeCheck';
import { forgotPasswordMachine } from '../../../src/machines/forgotPassword';
import { freeCallMachine } from '../../../src/machines/freeCall';
import { offerMachine } from '../../../src/machines/offer';
import { paymentStatusMachine } from '../../../src/machines/paymentStatus';
import { registerMachine } from '../../../src/machines/register';
import { signInMachine } from '../../../src/machines/signIn';
import { usePointsMachine } from '../../../src/machines/usePoints';
import { itemsOf, type FlowScope, type Item } from './coverage';

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
  paymentStatusMachine,
  bankWidgetMachine,
  offerMachine,
  signInMachine,
  usePointsMachine,
  codeCheckMachine,
  freeCallMachine,
  forgotPasswordMachine,
  registerMachine,
];

/** The flow that reaches a navigation to (or back to) a step. */
const stepOwner: Record<string, Flow> = {
  usePoints: 'points-sms',
  checkSendCode: 'free-call',
  checkByPhone: 'free-call',
  forgotPassword: 'password-restore',
  register: 'registration',
  reg: 'registration',
  sbp: 'payment-status',
  choosePaymentType: 'payment-status',
  result: 'payment-status',
};

function checkoutOwner(item: Item): Flow {
  const node = item.node;
  if (node === 'checkout' && item.kind === 'transition') {
    const event = item.event ?? '';
    if (event === 'nav.goTo' || event === 'nav.back') {
      const step = (item.targets?.[0] ?? '').replace('checkout.', '');
      return stepOwner[step] ?? 'anonymous-payment';
    }
    if (['session.updated', 'user.signedIn', 'user.change'].includes(event)) return 'signed-in-payment';
    if (['points.apply', 'code.required', 'code.confirmed'].includes(event)) return 'points-sms';
    if (event === 'freeCall.ended') return 'free-call';
    return 'anonymous-payment';
  }
  // Going to the main route: a points bill's is noReg, an account flow's the reg step.
  if (node === 'checkout.main') return item.targets?.includes('checkout.reg') ? 'password-restore' : 'points-sms';
  if (node === 'checkout.start') return item.targets?.includes('checkout.reg') ? 'signed-in-payment' : 'anonymous-payment';
  // 'checkout.register' starts with 'checkout.reg' too: the register step first.
  if (node.startsWith('checkout.register')) return 'registration';
  if (node.startsWith('checkout.reg')) return 'signed-in-payment';
  if (node.startsWith('checkout.usePoints') || node.startsWith('checkout.checkSendCode')) return 'points-sms';
  if (node.startsWith('checkout.checkByPhone')) return 'free-call';
  if (node.startsWith('checkout.forgotPassword')) return 'password-restore';
  if (node.startsWith('checkout.register')) return 'registration';
  if (node.startsWith('checkout.sbp') || node.startsWith('checkout.result')) return 'payment-status';
  if (node.startsWith('checkout.choosePaymentType.bankWidget')) return 'bank-widget';
  if (node.startsWith('checkout.choosePaymentType.closingWithPoints')) return 'points-sms';
  if (item.targets?.includes('checkout.choosePaymentType.closingWithPoints')) return 'points-sms';
  if (node === 'checkout.choosePaymentType.requestingPaymentUrl' && item.targets?.includes('checkout.choosePaymentType.bankWidget')) return 'bank-widget';
  return 'anonymous-payment';
}

function codeCheckOwner(item: Item): Flow {
  const node = item.node;
  if (node.includes('restoringPassword') || item.targets?.some((t) => t.includes('restoringPassword'))) return 'password-restore';
  if (node.includes('registering') || node.includes('finishFailed') || item.targets?.some((t) => t.includes('registering'))) return 'registration';
  return 'points-sms';
}

/** Which flow must reach an item: every state and transition of every real machine has exactly one owner. */
export function ownerOf(item: Item): Flow {
  switch (item.machine) {
    case 'app':
      return /refreshing|loggingOut|content\.ready/.test(item.node) ? 'signed-in-payment' : 'anonymous-payment';
    case 'checkout':
      return checkoutOwner(item);
    case 'codeCheck':
      return codeCheckOwner(item);
    case 'signIn':
      return 'signed-in-payment';
    case 'usePoints':
      return 'points-sms';
    case 'register':
      return 'registration';
    case 'forgotPassword':
      return 'password-restore';
    case 'freeCall':
      return 'free-call';
    case 'paymentStatus':
      return 'payment-status';
    case 'bankWidget':
      return 'bank-widget';
    case 'offer':
      return 'anonymous-payment';
    default:
      throw new Error(`no flow owns machine ${item.machine}`);
  }
}

/**
 * Dead code of the real machines: items no payer action or server answer can reach. Reported on every run (and
 * to the lead), never dropped silently; a path that does reach one fails the flow, so the list cannot go stale.
 */
export const unreachableFromPage: Record<string, string> = {
  'checkout:checkout.noReg.editing --checkout.continue [is final price below zero] -> (stays)':
    'final price below zero: used points are clamped to min(useful points, sum + lowest fee), so the price never drops below 0',
  'checkout:checkout.reg.signedIn.editing --checkout.continue [is final price below zero] -> (stays)': 'final price below zero: as on noReg, the points clamp prevents it',
  'checkout:checkout.choosePaymentType.choosing --payment.pay [is final price below zero] -> (stays)': 'final price below zero: as on noReg, the points clamp prevents it',
  'checkout:checkout.choosePaymentType.bankWidget --error:bankWidget -> checkout.choosePaymentType.redirecting':
    'the widget machine errors only if one of its own effects throws; the widget client reports its failures as widget.error instead',
  'usePoints:usePoints.editing --points.submit [is points empty] -> (stays)':
    "the points form's own schema refuses an empty or non-numeric field ('Заполните поле') before the flow hears a submit",
  'codeCheck:codeCheck.resend.ready --code.resend [is captcha pending] -> (stays)':
    "'Отправить код повторно' is disabled while the robot check is shown and not passed, and it sends at once (no validation in between)",
};

export const scopeOf = (flow: Flow, machines: AnyStateMachine[] = realMachines): FlowScope => ({
  machines,
  owns: (item) => ownerOf(item) === flow,
  unreachable: Object.fromEntries(Object.entries(unreachableFromPage).filter(([key]) => ownerOfKey(key, machines) === flow)),
});

function ownerOfKey(key: string, machines: AnyStateMachine[]): Flow | null {
  for (const machine of machines) {
    const item = itemsOf(machine).find((candidate) => candidate.key === key);
    if (item) return ownerOf(item);
  }
  return null;
}
