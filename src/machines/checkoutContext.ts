import type { Agreements, CheckoutDraft, Typed } from '../services/checkoutDraft';
import { amountToPay, canUsePoints, capOf, clampPoints, commission, emailUsed, finalPrice, isCoveredByPoints, maxSpendablePoints, partsOf, roublesOf, sumOf, type Kopecks } from '../services/pricing';
import { partProblem, typedPartOf, type PartProblem } from '../services/rules/parts';
import type { Bill, LoyaltyUser, PaymentType, PaymentUrlRequest } from '../services/types';
import type { CodeRequest } from './codeFlow';
import type { DoneActorEvent } from 'xstate';
import type { LoadedCode } from './chunks';
import type { PaymentOutput, PaymentProblem } from './payment';
import type { PaymentStatusOutput } from './paymentStatus';
import type { PayerOpenedStep, Step } from './steps';

/** The checkout's input, context and events, and the values derived from its context that the views read too. */

export interface CheckoutInput {
  bill: Bill;
  user: LoyaltyUser | null;
  /** Desktop or phone, decided from the browser at the composition root (viewport and pointer). */
  isDesktop: boolean;
  /** The route the address bar showed at (re)load: the checkout resumes it when the server's data allows. */
  resumePath?: string | null;
  /**
   * This tab's draft of the checkout, for a reload on any step (services/checkoutDraft.ts, machines/checkoutDraft.ts),
   * with what the payer last asked a code for, so that a reload on the code screen can finish the flow. Null: none kept.
   */
  draft?: CheckoutDraft | null;
  /** 'Оплатить через СБП' after a declined card: the code of the way to pay the retry opens with chosen. */
  retryWay?: string | null;
}

/** What went wrong on the choose-payment-type step; the view words it from the catalogue. */
export type CheckoutProblem = PaymentProblem;

export type { Agreements, Typed };

/** An attempt still open at the acquirer: its way to pay, points and part, to go back to it by paying the same again. */
export interface OpenChoice {
  cardTypeOID: string;
  pointsUsed: number;
  /** A bill in parts: the part it pays, roubles; null on a bill paid whole. */
  part: number | null;
}

export const noAgreements: Agreements = { aggregator: false, executor: false };

export interface CheckoutContext extends CheckoutInput {
  /** The step shown now, kept so that navigation can remember where it came from. */
  step: Step;
  /** Steps to go back to, newest last; the 'Back' link is hidden when it is empty. */
  history: Step[];
  anotherEmail: string | null;
  emailError: boolean;
  /** What the payer typed and has not sent: shown again after a reload, the restore or registration form included. */
  typed: Typed;
  /** The points last asked for, shown again when the payer comes back to the points screen. */
  pointsToUse: number | null;
  usedPoints: number;
  /** The bill's phone was proven by a use-points code: points apply at once from now on. */
  phoneChecked: boolean;
  /** The phone the last code went to (the free-call line waits for a call from it). */
  sendSmsPhone: string;
  /** What the payer last asked a code for, while its flow runs (or its form shows again after a reload): kept in the draft. */
  codeAskedFor: CodeRequest | null;
  notice: 'new password sent' | 'registration success' | null;
  selectedTypeOid: string | null;
  /**
   * What the payer typed in 'Сумма платежа' on a bill paid in parts, as typed; null: not typed, the part is what
   * remains or the chosen way's cap when that is lower.
   */
  partTyped: string | null;
  /** The ticks by payment type: switching the way to pay and back keeps them; each type has its own offer. */
  agreements: Record<string, Agreements>;
  agreementErrors: Agreements;
  transactionID: string | null;
  formUrl: string | null;
  qrSrc: string | null;
  problem: CheckoutProblem | null;
  /** The bill's attempt still open at the acquirer (a card form left, a QR not paid): the way-to-pay step says so. */
  openAttempt: OpenChoice | null;
  /** The chunks of code here so far, with their children's logic (chunks.ts). */
  code: LoadedCode;
  /** The step the payer asked for while `opening` fetches its code; null while the page opens (`start` decides then). */
  goingTo: Step | null;
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
  /** 'Сумма платежа' typed into, on a bill paid in parts. */
  | { type: 'part.type'; text: string }
  | { type: 'agreement.set'; kind: 'aggregator' | 'executor'; checked: boolean }
  /** 'Оплатить', with the receipt e-mail of the step's field (it stays editable there). */
  | { type: 'payment.pay'; email?: string }
  /** 'Не списывать баллы' on the way-to-pay step. */
  | { type: 'points.clear' }
  /** An attempt still open: 'Выбрать другой способ' (asked to confirm), 'Отменить и выбрать другой способ' (confirmed). */
  | { type: 'openAttempt.chooseAnother' }
  | { type: 'openAttempt.abandon' }
  /** 'Вернуться к оплате': the open attempt's way (and part) paid again, which finds the same attempt. */
  | { type: 'openAttempt.resume' }
  /** A field typed into (kept for a reload, not yet sent). */
  | { type: 'payer.typed'; typed: Typed }
  // From the children:
  | { type: 'code.sent'; request: CodeRequest }
  | { type: 'code.confirmed'; request: CodeRequest }
  | { type: 'user.signedIn' }
  | { type: 'freeCall.ended' }
  /** 'Попробовать снова' after a step's code (or the sign-in form's) could not be loaded. */
  | { type: 'code.retry' }
  | ChildDone;

/**
 * The children's ends the checkout acts on. They are started from their chunk's logic (chunks.ts) rather than invoked,
 * so their done events are named here, as an invoke's onDone would name them.
 */
export type ChildDone = DoneActorEvent<PaymentOutput, 'payment'> | DoneActorEvent<PaymentStatusOutput, 'paymentStatus'>;

/**
 * 'Попробовать снова': the declined attempt's way to pay when the bill still offers it, or the way the payer chose
 * instead ('Оплатить через СБП').
 */
export const retriedType = (bill: Bill, way?: string | null): string | null => {
  if (!bill.retry) return null;
  const chosen = bill.cardTypes.find((type) => type.Code === way) ?? bill.cardTypes.find((type) => type.OID === bill.retry!.cardTypeOID);
  return chosen?.OID ?? null;
};



/** The checkout as it starts: on the main route, nothing chosen yet but what a retry of a declined payment keeps. */
export const initialContext = (input: CheckoutInput): CheckoutContext => ({
  ...input,
  step: mainStep(input.bill),
  history: [],
  // 'Попробовать снова' keeps the e-mail the declined attempt had (the server checked it then). Only the payer's own
  // attempt prefills the field: anyone else holding the retry link is given the e-mail masked.
  anotherEmail: (input.bill.retry?.ownAttempt && input.bill.retry.email) || null,
  emailError: false,
  typed: {},
  pointsToUse: null,
  usedPoints: 0,
  phoneChecked: false,
  sendSmsPhone: '',
  codeAskedFor: null,
  notice: null,
  selectedTypeOid: retriedType(input.bill, input.retryWay),
  partTyped: null,
  agreements: {},
  agreementErrors: noAgreements,
  transactionID: null,
  formUrl: null,
  qrSrc: null,
  problem: null,
  // An attempt that may still be paid (a QR in another tab, a card form left by Back) is said before any other way is
  // offered, whatever tab or visit opened the link.
  openAttempt: openChoiceOf(input.bill),
  code: {},
  goingTo: null,
});

/** The bill's attempt still waiting at the acquirer, when its way to pay is still one of the bill's. */
export const openChoiceOf = (bill: Bill): OpenChoice | null => {
  const open = bill.openAttempt;
  return open?.status === 'created' && bill.cardTypes.some((type) => type.OID === open.cardTypeOID) ? { cardTypeOID: open.cardTypeOID, pointsUsed: open.pointsUsed, part: open.part ?? null } : null;
};

/**
 * The main route: the step a payer starts on and comes back to, the account step (sign-in) unless the bill takes guests
 * (its noReg).
 */
export const mainStep = (bill: Bill): Step => (bill.noReg ? 'guest' : 'account');

/** A number of points asked for, cut to what the bill allows (whole points, 0 to the maximum). */
export const pointsAllowed = (context: CheckoutContext, requested: number) => clampPoints(requested, maxSpendablePoints(context.bill));

/**
 * The bill and the user refetched (after a sign-in or a change of user). Points already applied never exceed what the
 * new bill allows, so the final price cannot drop below zero (the account step has no points today, but the invariant is
 * the pricing's).
 */
export function withSession(context: CheckoutContext, bill: Bill, user: LoyaltyUser | null): Partial<CheckoutContext> {
  const max = maxSpendablePoints(bill);
  const pointsToUse = context.pointsToUse === null ? null : clampPoints(context.pointsToUse, max);
  return { bill, user, usedPoints: clampPoints(context.usedPoints, max), pointsToUse };
}

export const selectedType = (context: CheckoutContext): PaymentType | null =>
  context.bill.cardTypes.find((type) => type.OID === context.selectedTypeOid) ?? null;

/** The ticks of the chosen type. */
export const agreementsOf = (context: CheckoutContext): Agreements =>
  (context.selectedTypeOid ? context.agreements[context.selectedTypeOid] : undefined) ?? noAgreements;

/** The agreements the chosen type asks for and the payer has not ticked. */
export const missingAgreements = (context: CheckoutContext): Agreements => {
  const type = selectedType(context);
  const ticked = agreementsOf(context);
  return { aggregator: !!type?.IsShowAggregatorOffer && !ticked.aggregator, executor: !!type?.IsShowExecuterOffer && !ticked.executor };
};

/** The part the payer typed, kopecks, on a bill paid in parts; null: none typed, or not a sum. */
const typedPart = (context: CheckoutContext): Kopecks | null =>
  context.bill.parts && context.partTyped !== null ? typedPartOf(context.partTyped) : null;

/** What this payment pays of the bill, kopecks: the whole, or of a bill in parts the part typed or the default one. */
const partOf = (context: CheckoutContext): Kopecks => sumOf(context.bill, selectedType(context), typedPart(context));

/** What is wrong with the part this payment would pay; null on a bill without parts or when nothing is. */
function partProblemOf(context: CheckoutContext): PartProblem | null {
  const parts = partsOf(context.bill);
  if (!parts) return null;
  if (context.partTyped !== null && typedPart(context) === null) return { kind: 'not-a-sum' };
  return partProblem(parts, partOf(context), capOf(selectedType(context)));
}

/** Points applied never exceed what the part now paid allows (a smaller part takes fewer). */
export const pointsForPart = (context: CheckoutContext): number =>
  clampPoints(context.usedPoints, maxSpendablePoints(context.bill, selectedType(context), typedPart(context)));

/** A way to pay chosen: its agreements' errors and the last problem put away. */
export const chosenWay = (oid: string): Partial<CheckoutContext> => ({ selectedTypeOid: oid, problem: null, agreementErrors: noAgreements });

/**
 * Back to the attempt left open ('Вернуться к оплате'): its way, and on a bill in parts its part too, whatever part this
 * tab had typed, so the Pay that follows pays the same again and finds the same order.
 */
export function resumedWay(context: CheckoutContext): Partial<CheckoutContext> {
  if (!context.openAttempt) return {};
  const chosen = chosenWay(context.openAttempt.cardTypeOID);
  const part = context.bill.parts ? context.openAttempt.part : null;
  if (part == null) return chosen;
  const resumed = { ...chosen, partTyped: String(part) };
  return { ...resumed, usedPoints: pointsForPart({ ...context, ...resumed }) };
}

/** Derived values the views also read, from services/pricing; money in kopecks. */
export const derive = {
  selectedType,
  commission: (context: CheckoutContext) => commission(context.bill.cardTypes, selectedType(context)),
  finalPrice: (context: CheckoutContext) => finalPrice(context.bill, selectedType(context), context.usedPoints, typedPart(context)),
  /** What the payer is shown to pay in money: the final price, never below zero. */
  amountToPay: (context: CheckoutContext) => amountToPay(context.bill, selectedType(context), context.usedPoints, typedPart(context)),
  /** What this payment pays of the bill (the part, on a bill in parts). */
  part: partOf,
  partProblem: partProblemOf,
  maxPoints: (context: CheckoutContext) => maxSpendablePoints(context.bill),
  emailUsed: (context: CheckoutContext) =>
    emailUsed({ emailError: context.emailError, anotherEmail: context.anotherEmail, bill: context.bill, user: context.user }),
  /** An e-mail other than the one the receipt would go to, which the server has not checked yet. */
  isEmailChanged: (context: CheckoutContext, email: string) => email !== derive.emailUsed(context),
  isCoveredByPoints: (context: CheckoutContext) => isCoveredByPoints(context.bill, context.usedPoints),
  agreements: agreementsOf,
  canUsePoints: (context: CheckoutContext) => canUsePoints(context.bill),
};

/** Pay's request: the bill, the chosen type (none when points cover the bill), the points, the part typed, the receipt e-mail, the user. */
export function paymentRequest(context: CheckoutContext): PaymentUrlRequest {
  const part = typedPart(context);
  return {
    objectOID: context.bill.objectOID,
    pointsSum: context.usedPoints > 0 ? context.usedPoints : null,
    // The part the payer typed; none typed, none is sent: the server takes what remains or the way's cap, as shown.
    ...(part !== null && { partSum: roublesOf(part) }),
    cardTypeOID: context.selectedTypeOid,
    email: derive.emailUsed(context),
    userOID: context.user?.oid ?? null,
  };
}

/** How paying ended, as the checkout's guards and actions take it from the payment's done event. */
export type PayOutcome = { output: PaymentOutput };
export const payOutcome = ({ event }: { event: DoneActorEvent<PaymentOutput> }): PayOutcome => ({ output: event.output });
