import type { CodePurpose, CodeRequest, RegisterForm } from './types';

/** This tab's session storage: what a reload keeps and closing the tab drops. */
export type TabStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const KEY = 'checkout.codeDraft';

/**
 * The code step's draft (issue 17): what the payer asked a code for (the phone typed, the registration form, the
 * points), kept in this tab only, so that a reload on the code screen can finish the flow with the code on the phone.
 * Never a password nor a code; bound to its bill; forgotten when the flow ends. The server stays the judge of whether
 * the code is still valid (`sentCode`): a draft alone never shows the code screen.
 */
interface StoredDraft {
  objectOID: string;
  request: CodeRequest;
}

/** Sealed or full storage only means nothing is kept: a reload then goes to the step before (the form). */
function attempt<T>(fallback: T, run: () => T): T {
  try {
    return run();
  } catch {
    return fallback;
  }
}

export function saveCodeDraft(storage: TabStorage | null | undefined, objectOID: string, request: CodeRequest): void {
  attempt(undefined, () => storage?.setItem(KEY, JSON.stringify({ objectOID, request } satisfies StoredDraft)));
}

export function forgetCodeDraft(storage: TabStorage | null | undefined): void {
  attempt(undefined, () => storage?.removeItem(KEY));
}

/** The draft of this bill, when the stored one is well formed; anything else (another bill's, tampered) is none. */
export function readCodeDraft(storage: TabStorage | null | undefined, objectOID: string): CodeRequest | null {
  const stored = attempt<unknown>(null, () => JSON.parse(storage?.getItem(KEY) ?? 'null'));
  if (!isRecord(stored) || stored.objectOID !== objectOID) return null;
  return requestOf(stored.request);
}

const PHONE = /^79\d{9}$/;
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isText = (value: unknown): value is string => typeof value === 'string';

function requestOf(value: unknown): CodeRequest | null {
  if (!isRecord(value) || !isText(value.phone) || !PHONE.test(value.phone)) return null;
  const { phone } = value;
  switch (value.purpose as CodePurpose) {
    case 'use-points': {
      const { points } = value;
      return points === null || (Number.isSafeInteger(points) && (points as number) > 0) ? { purpose: 'use-points', phone, points: points as number | null } : null;
    }
    case 'forgot-password':
      return { purpose: 'forgot-password', phone };
    case 'register': {
      const form = formOf(value.form);
      return form && form.phone === phone ? { purpose: 'register', phone, form } : null;
    }
    default:
      return null;
  }
}

function formOf(value: unknown): RegisterForm | null {
  if (!isRecord(value)) return null;
  const { surname, name, patronymic, phone, privacy } = value;
  if (!isText(surname) || !isText(name) || !isText(patronymic) || !isText(phone) || typeof privacy !== 'boolean') return null;
  return { surname, name, patronymic, phone, privacy };
}
