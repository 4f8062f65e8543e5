/**
 * The new-bill form's draft and the API body made of it. The form's fields, limits and code lists are read from the
 * merchant API's schema of a new bill (`schemaOfForm`); what is typed goes to the server as typed as far as it can
 * (an amount with a comma becomes the API's "1234.50"), and the server's one validation answers every problem by field.
 * The bill's amount is what its positions add up to, by the rule the server checks it with (rules/positions.ts).
 */
import { positionAmount, quantityMilliOf } from '../../services/rules/positions';
import { moneyValue, moscowInputToIso, phoneDigits, typedKopecks, typedNumber } from './format';
import type { BillForm, JsonSchema, NewBillBody } from './types';

export interface PositionDraft {
  name: string;
  quantity: string;
  price: string;
  vat: string;
  paymentMethod: string;
  paymentObject: string;
  /** '' : none given (the API's default). */
  measure: string;
}

export interface BillDraft {
  purpose: string;
  name: string;
  phone: string;
  email: string;
  /** A date-time field's value, Moscow time; '' for none. */
  expires: string;
  /** Paid in several payments, each at least `partMinimum` (roubles as typed). */
  parts: boolean;
  partMinimum: string;
  /** When the money is taken: as the payer pays, or held until the staff capture it. */
  capture: 'automatic' | 'manual';
  positions: PositionDraft[];
}

/** What the form reads from the API's schema: each field's length limit, the code lists, the most positions. */
export interface FormSchema {
  purposeMax: number;
  nameMax: number;
  emailMax: number;
  itemNameMax: number;
  itemsMax: number;
  vat: readonly string[];
  paymentMethod: readonly string[];
  paymentObject: readonly string[];
  measure: readonly string[];
  /** The ways the money may be taken (the API's `capture`). */
  capture: readonly string[];
}

const at = (schema: JsonSchema | undefined, ...path: string[]): JsonSchema | undefined =>
  path.reduce<JsonSchema | undefined>((node, key) => (key === '[]' ? node?.items : node?.properties?.[key]), schema);

export function schemaOfForm(form: BillForm): FormSchema {
  const schema = form.schema;
  const item = (key: string) => at(schema, 'items', '[]', key);
  return {
    purposeMax: at(schema, 'purpose')?.maxLength ?? 500,
    nameMax: at(schema, 'customer', 'name')?.maxLength ?? 200,
    emailMax: at(schema, 'customer', 'email')?.maxLength ?? 254,
    itemNameMax: item('name')?.maxLength ?? 100,
    itemsMax: at(schema, 'items')?.maxItems ?? 100,
    vat: item('vat')?.enum ?? [],
    paymentMethod: item('paymentMethod')?.enum ?? [],
    paymentObject: item('paymentObject')?.enum ?? [],
    measure: item('measure')?.enum ?? [],
    capture: at(schema, 'capture')?.enum ?? ['automatic'],
  };
}

/** A new position with the server's fiscal defaults. */
export const newPosition = (form: BillForm): PositionDraft => ({
  name: '',
  quantity: '1',
  price: '',
  vat: form.fiscal.vat,
  paymentMethod: form.fiscal.paymentMethod,
  paymentObject: form.fiscal.paymentObject,
  measure: '',
});

export const emptyDraft = (form: BillForm): BillDraft => ({
  purpose: '',
  name: '',
  phone: '',
  email: '',
  expires: '',
  parts: false,
  partMinimum: '',
  capture: 'automatic',
  positions: [newPosition(form)],
});

/** What the positions add up to (kopecks), counting those whose quantity and price read. */
export function draftTotal(draft: BillDraft): number {
  return draft.positions.reduce((sum, position) => {
    const quantity = typedNumber(position.quantity);
    const milli = quantity === undefined ? undefined : quantityMilliOf(quantity);
    const price = typedKopecks(position.price);
    return milli === undefined || price === undefined ? sum : sum + positionAmount(milli, price);
  }, 0);
}

/** An amount as typed, as the API's money: read when it reads, else as typed (the server then says what is wrong). */
const moneyOf = (typed: string) => {
  const kopecks = typedKopecks(typed);
  return { value: kopecks === undefined ? typed.trim() : moneyValue(kopecks), currency: 'RUB' as const };
};

/** The API's body of the bill the draft describes (empty optional fields left out). */
export function newBillBody(draft: BillDraft): NewBillBody {
  const customer = {
    ...(draft.name.trim() ? { name: draft.name.trim() } : {}),
    ...(draft.phone.trim() ? { phone: phoneDigits(draft.phone) } : {}),
    ...(draft.email.trim() ? { email: draft.email.trim() } : {}),
  };
  const expiresAt = draft.expires ? (moscowInputToIso(draft.expires) ?? draft.expires) : undefined;
  return {
    purpose: draft.purpose.trim(),
    amount: { value: moneyValue(draftTotal(draft)), currency: 'RUB' },
    ...(Object.keys(customer).length > 0 ? { customer } : {}),
    ...(expiresAt ? { expiresAt } : {}),
    // Parts and a manual capture go as asked, together too: the server's one validation says what may not be.
    ...(draft.parts ? { parts: { minimum: moneyOf(draft.partMinimum) } } : {}),
    ...(draft.capture === 'manual' ? { capture: 'manual' as const } : {}),
    items: draft.positions.map((position) => ({
      name: position.name.trim(),
      // A quantity that does not read goes as typed: the server refuses it by its field.
      quantity: (typedNumber(position.quantity) ?? position.quantity) as number,
      price: moneyOf(position.price),
      vat: position.vat,
      paymentMethod: position.paymentMethod,
      paymentObject: position.paymentObject,
      ...(position.measure ? { measure: position.measure } : {}),
    })),
  };
}
