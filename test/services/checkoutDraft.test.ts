import { CHECKOUT_DRAFT_KEY, saveCheckoutDraft, type CheckoutDraft, type TabStorage } from '../../src/services/checkoutDraft';
import { readCheckoutDraft } from '../../src/services/draftReader';
import type { CodeRequest } from '../../src/services/types';
import { memoryTabStorage } from '../fixtures/fakes';

/** This tab's draft of the checkout: kept per bill, read back only as far as it is well formed, never throwing. */

const memoryStorage = memoryTabStorage;

/** A tab's storage that refuses every call, as in private mode or when full: the draft must neither throw nor keep. */
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

const draft: CheckoutDraft = {
  email: 'payer@example.com',
  typed: { email: 'other@exa', signInPhone: '7999', form: { purpose: 'register', phone: '7999', form: { ...form, phone: '7999', privacy: false } }, part: '600 000,25' },
  selectedTypeOid: 'bill-1.SBP',
  agreements: { 'bill-1.SBP': { aggregator: true, executor: false } },
  usedPoints: 1500,
  pointsToUse: 1500,
  phoneChecked: true,
  transactionID: 'qrc-1',
  code: { purpose: 'forgot-password', phone: '79990000002' },
};

test('saved, it reads back for its bill, and for no other', () => {
  const storage = memoryStorage();
  saveCheckoutDraft(storage, 'bill-1', draft);
  expect(readCheckoutDraft(storage, 'bill-1')).toEqual(draft);
  expect(readCheckoutDraft(storage, 'bill-2')).toBeNull();
});

test("another bill's draft replaces it: one per tab", () => {
  const storage = memoryStorage();
  saveCheckoutDraft(storage, 'bill-1', draft);
  saveCheckoutDraft(storage, 'bill-2', { ...draft, email: null });
  expect(readCheckoutDraft(storage, 'bill-1')).toBeNull();
  expect(readCheckoutDraft(storage, 'bill-2')).toMatchObject({ email: null });
  expect(storage.items.size).toBe(1);
});

test('a field tampered with reads as a fresh checkout has it; the others are kept', () => {
  const storage = memoryStorage();
  const tampered = {
    ...draft,
    email: 42,
    usedPoints: -5,
    pointsToUse: 1.5,
    phoneChecked: 'yes',
    agreements: { a: 'ticked', b: { aggregator: true, executor: 'yes' } },
    typed: { email: 7, form: { purpose: 'launch', phone: '1' }, part: '9'.repeat(100) },
    code: { purpose: 'login', phone: '79990000002' },
  };
  storage.setItem(CHECKOUT_DRAFT_KEY, JSON.stringify({ billLink: 'bill-1', draft: tampered }));
  expect(readCheckoutDraft(storage, 'bill-1')).toEqual({
    ...draft,
    email: null,
    usedPoints: 0,
    pointsToUse: null,
    phoneChecked: false,
    agreements: { b: { aggregator: true, executor: false } },
    typed: {},
    code: null,
  });
  storage.setItem(CHECKOUT_DRAFT_KEY, '{not json');
  expect(readCheckoutDraft(storage, 'bill-1')).toBeNull();
  storage.setItem(CHECKOUT_DRAFT_KEY, JSON.stringify({ billLink: 'bill-1', draft: [1, 2] }));
  expect(readCheckoutDraft(storage, 'bill-1')).toBeNull();
});

describe('what the code was asked for', () => {
  const requests: CodeRequest[] = [
    { purpose: 'use-points', phone: '79990000001', points: 1000 },
    { purpose: 'use-points', phone: '79990000001', points: null },
    // The bill's phone, as the page has it: masked.
    { purpose: 'use-points', phone: '+7 (999) ***-**-01', points: 1000 },
    { purpose: 'forgot-password', phone: '79990000002' },
    { purpose: 'register', phone: '79990000002', form },
  ];

  test.each(requests)('%o reads back as it was kept', (request) => {
    const storage = memoryStorage();
    saveCheckoutDraft(storage, 'bill-1', { ...draft, code: request });
    expect(readCheckoutDraft(storage, 'bill-1')?.code).toEqual(request);
  });

  test.each([
    ['an unknown purpose', { purpose: 'login', phone: '79990000002' }],
    ['a malformed phone', { purpose: 'forgot-password', phone: '+7 999' }],
    ['a masked phone for a code to a typed phone', { purpose: 'forgot-password', phone: '+7 (999) ***-**-02' }],
    ['a points phone masked wrong', { purpose: 'use-points', phone: '+7 (999) ***-**-0', points: 5 }],
    ['points that are not a whole positive number', { purpose: 'use-points', phone: '79990000001', points: -5 }],
    ['a registration form missing a field', { purpose: 'register', phone: '79990000002', form: { ...form, privacy: 'yes' } }],
    ["a form whose phone is not the code's", { purpose: 'register', phone: '79990000003', form }],
  ])('%s: none', (_, code) => {
    const storage = memoryStorage();
    storage.setItem(CHECKOUT_DRAFT_KEY, JSON.stringify({ billLink: 'bill-1', draft: { ...draft, code } }));
    expect(readCheckoutDraft(storage, 'bill-1')).toEqual({ ...draft, code: null });
  });
});

test('storage that refuses (private mode, full) keeps nothing and throws nothing', () => {
  expect(() => saveCheckoutDraft(refusing, 'bill-1', draft)).not.toThrow();
  expect(readCheckoutDraft(refusing, 'bill-1')).toBeNull();
  expect(readCheckoutDraft(null, 'bill-1')).toBeNull();
});
