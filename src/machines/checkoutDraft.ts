import { canUsePoints, clampPoints, maxSpendablePoints } from '../services/pricing';
import type { CheckoutDraft } from '../services/checkoutDraft';
import type { Bill } from '../services/types';
import type { CheckoutContext } from './checkoutContext';

/*
 * This tab's draft of the checkout (services/checkoutDraft.ts), both ways, side by side: what a reload keeps of the
 * checkout's snapshot, and what it gives back. The composition root writes `draftOf` each time the checkout changes;
 * resuming after a reload (checkoutResume.ts) reads it back with `fromDraft`. test/machines/draftRoundTrip.test.ts walks
 * every step through both.
 */

/**
 * The checkout still opening the page: deciding where to start, or fetching the code of the step a reload names. Its
 * snapshot then is not the step's yet: the address bar and the draft keep what they had.
 */
export const opensThePage = (snapshot: { matches(state: 'start' | 'opening'): boolean; context: Pick<CheckoutContext, 'goingTo'> }) =>
  snapshot.matches('start') || (snapshot.matches('opening') && snapshot.context.goingTo === null);

/** What a reload keeps of the checkout: its choices and what was typed; the step itself is the address bar's. */
export const draftOf = ({ context }: { context: CheckoutContext }): CheckoutDraft => ({
  email: context.anotherEmail,
  // The part typed is kept with what else was typed and not sent.
  typed: context.partTyped === null ? context.typed : { ...context.typed, part: context.partTyped },
  selectedTypeOid: context.selectedTypeOid,
  agreements: context.agreements,
  usedPoints: context.usedPoints,
  pointsToUse: context.pointsToUse,
  phoneChecked: context.phoneChecked,
  transactionID: context.transactionID,
  code: context.codeAskedFor,
});

/**
 * The draft given back, as far as the bill as it is now still allows it: a way to pay it no longer offers, ticks for
 * one, points beyond what it allows and a part typed for a bill no longer paid in parts are left out.
 */
export function fromDraft(draft: CheckoutDraft, bill: Bill, before: Pick<CheckoutContext, 'anotherEmail' | 'selectedTypeOid'>): Partial<CheckoutContext> {
  const offered = (oid: string) => bill.cardTypes.some((type) => type.OID === oid);
  const max = canUsePoints(bill) ? maxSpendablePoints(bill) : 0;
  const { part, ...typed } = draft.typed;
  return {
    anotherEmail: draft.email ?? before.anotherEmail,
    typed,
    // Only a bill still paid in parts takes a part typed.
    partTyped: bill.parts && part !== undefined ? part : null,
    selectedTypeOid: draft.selectedTypeOid && offered(draft.selectedTypeOid) ? draft.selectedTypeOid : before.selectedTypeOid,
    agreements: Object.fromEntries(Object.entries(draft.agreements).filter(([oid]) => offered(oid))),
    usedPoints: clampPoints(draft.usedPoints, max),
    pointsToUse: draft.pointsToUse === null ? null : clampPoints(draft.pointsToUse, max),
    phoneChecked: draft.phoneChecked,
    transactionID: draft.transactionID,
    codeAskedFor: draft.code,
  };
}
