import { attempt, type TabStorage } from './codeDraft';
import type { CodeRequest } from './types';

/** The agreement ticks of one payment type. */
export interface Agreements {
  aggregator: boolean;
  executer: boolean;
}

/** What the payer has typed into a step's fields and not sent yet: the receipt e-mail, the sign-in phone, a code's form. */
export interface Typed {
  email?: string;
  signInPhone?: string;
  /** The restore or registration form (its consent is never kept: it is asked again). */
  form?: CodeRequest;
}

export const CHECKOUT_DRAFT_KEY = 'checkout.draft';

/**
 * The checkout's draft: what the payer chose and typed on this bill, kept in this tab only, so that a reload, or Back
 * from the bank's card form, shows every step as it was. Never a password nor a code. The server stays the judge: the
 * e-mail, the way to pay and the points are checked again when Pay sends them. Reading it back is needed only after a
 * reload, so its reader (draftReader.ts) is a chunk of its own, not on the first screen.
 */
export interface CheckoutDraft {
  /** The receipt e-mail the server accepted. */
  email: string | null;
  typed: Typed;
  selectedTypeOid: string | null;
  agreements: Record<string, Agreements>;
  usedPoints: number;
  pointsToUse: number | null;
  phoneChecked: boolean;
  /** The fast payment the sbp and result steps poll. */
  transactionID: string | null;
}

export function saveCheckoutDraft(storage: TabStorage | null | undefined, objectOID: string, draft: CheckoutDraft): void {
  attempt(undefined, () => storage?.setItem(CHECKOUT_DRAFT_KEY, JSON.stringify({ objectOID, draft })));
}
