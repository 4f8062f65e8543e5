import { forgetCodeDraft, saveCodeDraft, type TabStorage } from '../../src/services/codeDraft';
import { readCodeDraft } from '../../src/services/draftReader';
import type { CodeRequest } from '../../src/services/types';
import { memoryTabStorage } from '../fixtures/fakes';

/** This tab's draft of the code step: kept per bill, read back only when well formed, never throwing. */

const memoryStorage = memoryTabStorage;

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
  expect(() => saveCodeDraft(refusing, 'bill-1', requests[0]!)).not.toThrow();
  expect(() => forgetCodeDraft(refusing)).not.toThrow();
  expect(readCodeDraft(refusing, 'bill-1')).toBeNull();
  expect(readCodeDraft(null, 'bill-1')).toBeNull();
});
