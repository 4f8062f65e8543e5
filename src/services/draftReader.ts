import { attempt, CHECKOUT_DRAFT_KEY, type Agreements, type CheckoutDraft, type TabStorage, type Typed } from './checkoutDraft';
import { isMaskedPhone, isPhone } from './rules/phone';
import type { CodePurpose, CodeRequest, RegisterForm } from './types';

/*
 * Reading this tab's draft back after a reload (checkoutDraft.ts): a chunk of its own, loaded only when the address bar
 * names a step at load. What is stored is checked field by field: another bill's draft, or one tampered with, gives
 * nothing (or nothing of the field that is wrong).
 */

/** The checkout's draft of this bill (its link id): each field as stored when it is well formed, else as a fresh checkout has it. */
export function readCheckoutDraft(storage: TabStorage | null | undefined, billLink: string): CheckoutDraft | null {
  const stored = attempt<unknown>(null, () => JSON.parse(storage?.getItem(CHECKOUT_DRAFT_KEY) ?? 'null'));
  const draft = isRecord(stored) && stored.billLink === billLink ? stored.draft : undefined;
  if (!isRecord(draft)) return null;
  return {
    email: textOrNull(draft.email),
    typed: typedOf(draft.typed),
    selectedTypeOid: textOrNull(draft.selectedTypeOid),
    agreements: agreementsOf(draft.agreements),
    usedPoints: isCount(draft.usedPoints) ? draft.usedPoints : 0,
    pointsToUse: isCount(draft.pointsToUse) ? draft.pointsToUse : null,
    phoneChecked: draft.phoneChecked === true,
    transactionID: textOrNull(draft.transactionID),
    code: requestOf(draft.code),
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string';
const textOrNull = (value: unknown): string | null => (isText(value) && value !== '' ? value : null);
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** A sum typed is short: anything longer was not typed into 'Сумма платежа'. */
const PART_TEXT_MAX = 32;

function typedOf(value: unknown): Typed {
  if (!isRecord(value)) return {};
  const form = typedFormOf(value.form);
  return {
    ...(isText(value.email) ? { email: value.email } : {}),
    ...(isText(value.signInPhone) ? { signInPhone: value.signInPhone } : {}),
    ...(form ? { form } : {}),
    ...(isText(value.part) && value.part.length <= PART_TEXT_MAX ? { part: value.part } : {}),
  };
}

/** A form as typed so far: its phone may be partial, but every field must be text. */
function typedFormOf(value: unknown): CodeRequest | null {
  if (!isRecord(value) || !isText(value.phone)) return null;
  if (value.purpose === 'forgot-password') return { purpose: 'forgot-password', phone: value.phone };
  const form = formOf(value.form);
  return value.purpose === 'register' && form ? { purpose: 'register', phone: value.phone, form } : null;
}

function agreementsOf(value: unknown): Record<string, Agreements> {
  if (!isRecord(value)) return {};
  const ticks: Record<string, Agreements> = {};
  for (const [oid, tick] of Object.entries(value)) {
    if (isRecord(tick)) ticks[oid] = { aggregator: tick.aggregator === true, executor: tick.executor === true };
  }
  return ticks;
}

function requestOf(value: unknown): CodeRequest | null {
  if (!isRecord(value) || !isText(value.phone)) return null;
  const { phone } = value;
  const typed = isPhone(phone);
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
