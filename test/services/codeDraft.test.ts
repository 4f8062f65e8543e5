import { forgetCodeDraft, saveCodeDraft, type TabStorage } from '../../src/services/codeDraft';
import { CHECKOUT_DRAFT_KEY, saveCheckoutDraft, type CheckoutDraft } from '../../src/services/checkoutDraft';
import { readCheckoutDraft, readCodeDraft } from '../../src/services/draftReader';
import type { CodeRequest } from '../../src/services/types';
import { memoryTabStorage } from '../fixtures/fakes';

/** This tab's draft of the code step: kept per bill, read back only when well formed, never throwing. */

const memoryStorage = memoryTabStorage;

/** A tab's storage that refuses every call, as in private mode or when full: the drafts must neither throw nor keep. */
const refusing: TabStorage = {
  getItem: () => {
    throw new Error('SecurityError');
  },
  setItem: () => {
    throw new Error('QuotaExceededError');
  },
  removeItem: () => {
    throw new Error('SecurityError');
  },
};

const form = { surname: 'Петров', name: 'Пётр', patronymic: '', phone: '79990000002', privacy: true };
const requests: CodeRequest[] = [
  { purpose: 'use-points', phone: '79990000001', points: 1000 },
  { purpose: 'use-points', phone: '79990000001', points: null },
  // The bill's phone, as the page has it: masked.
  { purpose: 'use-points', phone: '+7 (999) ***-**-01', points: 1000 },
  { purpose: 'forgot-password', phone: '79990000002' },
  { purpose: 'register', phone: '79990000002', form },
];

test.each(requests)('a saved %o reads back for its bill, and for no other', (request) => {
  const storage = memoryStorage();
  saveCodeDraft(storage, 'bill-1', request);
  expect(readCodeDraft(storage, 'bill-1')).toEqual(request);
  expect(readCodeDraft(storage, 'bill-2')).toBeNull();
});

test('forgotten, there is none', () => {
  const storage = memoryStorage();
  saveCodeDraft(storage, 'bill-1', requests[2]!);
  forgetCodeDraft(storage);
  expect(readCodeDraft(storage, 'bill-1')).toBeNull();
  expect(storage.items.size).toBe(0);
});

test('a newer code replaces the draft: one per tab', () => {
  const storage = memoryStorage();
  saveCodeDraft(storage, 'bill-1', requests[0]!);
  saveCodeDraft(storage, 'bill-1', requests[3]!);
  expect(readCodeDraft(storage, 'bill-1')).toEqual(requests[3]);
});

test.each([
  ['not JSON', '{'],
  ['no request', JSON.stringify({ objectOID: 'bill-1' })],
  ['an unknown purpose', JSON.stringify({ objectOID: 'bill-1', request: { purpose: 'login', phone: '79990000002' } })],
  ['a malformed phone', JSON.stringify({ objectOID: 'bill-1', request: { purpose: 'forgot-password', phone: '+7 999' } })],
  ['a masked phone for a code to a typed phone', JSON.stringify({ objectOID: 'bill-1', request: { purpose: 'forgot-password', phone: '+7 (999) ***-**-02' } })],
  ['a points phone masked wrong', JSON.stringify({ objectOID: 'bill-1', request: { purpose: 'use-points', phone: '+7 (999) ***-**-0', points: 5 } })],
  ['points that are not a whole positive number', JSON.stringify({ objectOID: 'bill-1', request: { purpose: 'use-points', phone: '79990000001', points: -5 } })],
  ['a registration form missing a field', JSON.stringify({ objectOID: 'bill-1', request: { purpose: 'register', phone: '79990000002', form: { ...form, privacy: 'yes' } } })],
  ["a form whose phone is not the code's", JSON.stringify({ objectOID: 'bill-1', request: { purpose: 'register', phone: '79990000003', form } })],
])('%s: no draft', (_, stored) => {
  const storage = memoryStorage();
  storage.items.set('checkout.codeDraft', stored);
  expect(readCodeDraft(storage, 'bill-1')).toBeNull();
});

test('storage refused or full: nothing kept, nothing thrown', () => {
  expect(() => saveCodeDraft(refusing, 'bill-1', requests[0]!)).not.toThrow();
  expect(() => forgetCodeDraft(refusing)).not.toThrow();
  expect(readCodeDraft(refusing, 'bill-1')).toBeNull();
  expect(readCodeDraft(null, 'bill-1')).toBeNull();
});

describe("the checkout's draft", () => {
  const draft: CheckoutDraft = {
    email: 'payer@example.com',
    typed: { email: 'other@exa', signInPhone: '7999', form: { purpose: 'register', phone: '7999', form: { ...form, phone: '7999', privacy: false } } },
    selectedTypeOid: 'bill-1.SBP',
    agreements: { 'bill-1.SBP': { aggregator: true, executer: false } },
    usedPoints: 1500,
    pointsToUse: 1500,
    phoneChecked: true,
    transactionID: 'qrc-1',
  };

  test('saved, it reads back for its bill, and for no other', () => {
    const storage = memoryStorage();
    saveCheckoutDraft(storage, 'bill-1', draft);
    expect(readCheckoutDraft(storage, 'bill-1')).toEqual(draft);
    expect(readCheckoutDraft(storage, 'bill-2')).toBeNull();
    // Beside the code step's draft, not in its place.
    saveCodeDraft(storage, 'bill-1', requests[3]!);
    expect(readCheckoutDraft(storage, 'bill-1')).toEqual(draft);
  });

  test('a field tampered with reads as a fresh checkout has it; the others are kept', () => {
    const storage = memoryStorage();
    const tampered = {
      ...draft,
      email: 42,
      usedPoints: -5,
      pointsToUse: 1.5,
      phoneChecked: 'yes',
      agreements: { a: 'ticked', b: { aggregator: true, executer: 'yes' } },
      typed: { email: 7, form: { purpose: 'launch', phone: '1' } },
    };
    storage.setItem(CHECKOUT_DRAFT_KEY, JSON.stringify({ objectOID: 'bill-1', draft: tampered }));
    expect(readCheckoutDraft(storage, 'bill-1')).toEqual({
      ...draft,
      email: null,
      usedPoints: 0,
      pointsToUse: null,
      phoneChecked: false,
      agreements: { b: { aggregator: true, executer: false } },
      typed: {},
    });
    storage.setItem(CHECKOUT_DRAFT_KEY, '{not json');
    expect(readCheckoutDraft(storage, 'bill-1')).toBeNull();
    storage.setItem(CHECKOUT_DRAFT_KEY, JSON.stringify({ objectOID: 'bill-1', draft: [1, 2] }));
    expect(readCheckoutDraft(storage, 'bill-1')).toBeNull();
  });

  test('storage that refuses (private mode, full) keeps nothing and throws nothing', () => {
    expect(() => saveCheckoutDraft(refusing, 'bill-1', draft)).not.toThrow();
    expect(readCheckoutDraft(refusing, 'bill-1')).toBeNull();
    expect(readCheckoutDraft(null, 'bill-1')).toBeNull();
  });
});
