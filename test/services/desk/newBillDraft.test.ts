/** The new-bill form's body: the API's, built from what was typed; the total by the server's own rule. */
import { draftTotal, emptyDraft, newBillBody, schemaOfForm } from '../../../src/desk/services/newBillDraft';
import { createBillBody } from '../../../server/merchant/schemas';
import type { BillForm } from '../../../src/desk/services/types';

const form: BillForm = { schema: createBillBody as unknown as BillForm['schema'], fiscal: { vat: 'vat22', paymentMethod: 'full_prepayment', paymentObject: 'commodity' } };

test('the form reads its limits and code lists from the API’s schema', () => {
  const schema = schemaOfForm(form);
  expect(schema).toMatchObject({ purposeMax: 500, nameMax: 200, itemNameMax: 100, itemsMax: 100 });
  expect(schema.vat).toContain('vat122');
  expect(schema.measure).toContain('hour');
});

test('typed amounts, quantities, a phone and a Moscow time become the API’s body; the total is the positions’', () => {
  const draft = {
    ...emptyDraft(form),
    purpose: ' Кухня ',
    name: 'Алёна',
    phone: '8 (999) 123-45-67',
    expires: '2026-12-01T18:00',
    positions: [
      { ...emptyDraft(form).positions[0]!, name: 'Гарнитур', quantity: '1', price: '150 000' },
      { ...emptyDraft(form).positions[0]!, name: 'Установка', quantity: '1,5', price: '1000,01', measure: 'hour' },
    ],
  };
  // 1.5 × 1000.01 = 1500.015: half a kopeck up, as the server rounds.
  expect(draftTotal(draft)).toBe(15_000_000 + 150_002);
  expect(newBillBody(draft)).toEqual({
    purpose: 'Кухня',
    amount: { value: '151500.02', currency: 'RUB' },
    customer: { name: 'Алёна', phone: '79991234567' },
    expiresAt: '2026-12-01T15:00:00.000Z',
    items: [
      { name: 'Гарнитур', quantity: 1, price: { value: '150000.00', currency: 'RUB' }, vat: 'vat22', paymentMethod: 'full_prepayment', paymentObject: 'commodity' },
      { name: 'Установка', quantity: 1.5, price: { value: '1000.01', currency: 'RUB' }, vat: 'vat22', paymentMethod: 'full_prepayment', paymentObject: 'commodity', measure: 'hour' },
    ],
  });
  // What does not read goes as typed: the server refuses it by its field.
  const bad = newBillBody({ ...draft, positions: [{ ...draft.positions[0]!, price: '12,345', quantity: 'два' }] });
  expect(bad.items![0]).toMatchObject({ price: { value: '12,345' }, quantity: 'два' });
});

test('parts with their minimum and a manual capture go as the API’s fields; left off, the body has neither', () => {
  expect(schemaOfForm(form).capture).toEqual(['automatic', 'manual']);
  const draft = { ...emptyDraft(form), purpose: 'Квартира', positions: [{ ...emptyDraft(form).positions[0]!, name: 'Квартира', price: '2 500 000' }] };
  expect(newBillBody(draft)).not.toHaveProperty('parts');
  expect(newBillBody(draft)).not.toHaveProperty('capture');
  expect(newBillBody({ ...draft, parts: true, partMinimum: '500 000,5' })).toMatchObject({ parts: { minimum: { value: '500000.50', currency: 'RUB' } } });
  // A minimum that does not read goes as typed, for the server's field message.
  expect(newBillBody({ ...draft, parts: true, partMinimum: 'полмиллиона' }).parts).toEqual({ minimum: { value: 'полмиллиона', currency: 'RUB' } });
  expect(newBillBody({ ...draft, capture: 'manual' })).toMatchObject({ capture: 'manual' });
});
