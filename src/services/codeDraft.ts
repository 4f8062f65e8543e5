import type { CodeRequest } from './types';

/** This tab's session storage: what a reload keeps and closing the tab drops. */
export type TabStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export const CODE_DRAFT_KEY = 'checkout.codeDraft';

/**
 * The code step's draft: what the payer asked a code for (the phone typed, the registration form, the
 * points), kept in this tab only, so that a reload on the code screen can finish the flow with the code on the phone.
 * Never a password nor a code; bound to its bill; forgotten when the flow ends. The server stays the judge of whether
 * the code is still valid (`sentCode`): a draft alone never shows the code screen. Reading it back is needed only on a
 * reload on the code screen, so its reader (draftReader.ts) is a chunk of its own, not on the first screen.
 */
export interface StoredDraft {
  objectOID: string;
  request: CodeRequest;
}

/** Sealed or full storage only means nothing is kept: a reload then goes to the step before (the form). */
export function attempt<T>(fallback: T, run: () => T): T {
  try {
    return run();
  } catch {
    return fallback;
  }
}

export function saveCodeDraft(storage: TabStorage | null | undefined, objectOID: string, request: CodeRequest): void {
  attempt(undefined, () => storage?.setItem(CODE_DRAFT_KEY, JSON.stringify({ objectOID, request } satisfies StoredDraft)));
}

export function forgetCodeDraft(storage: TabStorage | null | undefined): void {
  attempt(undefined, () => storage?.removeItem(CODE_DRAFT_KEY));
}
