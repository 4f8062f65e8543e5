import type { CodeRequest } from './types';

/** This tab's session storage: what a reload keeps and closing the tab drops. */
export type TabStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** Sealed or full storage only means nothing is kept: a reload then starts as a first visit would. */
export function attempt<T>(fallback: T, run: () => T): T {
  try {
    return run();
  } catch {
    return fallback;
  }
}

/** The agreement ticks of one payment type. */
export interface Agreements {
  aggregator: boolean;
  executor: boolean;
}

/** What the payer has typed into a step's fields and not sent yet: the receipt e-mail, the sign-in phone, a code's form. */
export interface Typed {
  email?: string;
  signInPhone?: string;
  /** The restore or registration form (its consent is never kept: it is asked again). */
  form?: CodeRequest;
  /** The part of a bill paid in parts typed into 'Сумма платежа', as typed (the server judges it when Pay sends it). */
  part?: string;
}

export const CHECKOUT_DRAFT_KEY = 'checkout.draft';

/**
 * The checkout's draft: what the payer chose and typed on this bill, kept in this tab only, so that a reload, or Back
 * from the bank's card form, shows every step as it was. Never a password nor a code. The server stays the judge: the
 * e-mail, the way to pay and the points are checked again when Pay sends them, and a code screen comes back only while
 * the server says its code is valid. It is the checkout's snapshot as a reload needs it (machines/checkoutDraft.ts: the
 * one function each way), written by the composition root whenever it changes; reading it back is needed only after a
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
  /** The fast payment's QR the sbp and result steps poll. */
  transactionID: string | null;
  /** What the payer last asked a code for (the phone typed, the registration form, the points), until its flow ends. */
  code: CodeRequest | null;
}

/** Keeps the draft of a bill (its link id), replacing any other bill's: one draft per tab. */
export function saveCheckoutDraft(storage: TabStorage | null | undefined, billLink: string, draft: CheckoutDraft): void {
  attempt(undefined, () => storage?.setItem(CHECKOUT_DRAFT_KEY, JSON.stringify({ billLink, draft })));
}
