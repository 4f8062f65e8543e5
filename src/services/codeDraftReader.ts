import { attempt, CODE_DRAFT_KEY, type TabStorage } from './codeDraft';
import { isMaskedPhone } from './format';
import type { CodePurpose, CodeRequest, RegisterForm } from './types';

/** The draft of this bill, when the stored one is well formed; anything else (another bill's, tampered) is none. */
export function readCodeDraft(storage: TabStorage | null | undefined, objectOID: string): CodeRequest | null {
  const stored = attempt<unknown>(null, () => JSON.parse(storage?.getItem(CODE_DRAFT_KEY) ?? 'null'));
  if (!isRecord(stored) || stored.objectOID !== objectOID) return null;
  return requestOf(stored.request);
}

const PHONE = /^79\d{9}$/;
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isText = (value: unknown): value is string => typeof value === 'string';

function requestOf(value: unknown): CodeRequest | null {
  if (!isRecord(value) || !isText(value.phone)) return null;
  const { phone } = value;
  const typed = PHONE.test(phone);
  switch (value.purpose as CodePurpose) {
    case 'use-points': {
      // A points code goes to the bill's phone, which the page holds masked (or to a signed-in payer's own).
      if (!typed && !isMaskedPhone(phone)) return null;
      const { points } = value;
      return points === null || (Number.isSafeInteger(points) && (points as number) > 0) ? { purpose: 'use-points', phone, points: points as number | null } : null;
    }
    case 'forgot-password':
      return typed ? { purpose: 'forgot-password', phone } : null;
    case 'register': {
      const form = formOf(value.form);
      return typed && form && form.phone === phone ? { purpose: 'register', phone, form } : null;
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
