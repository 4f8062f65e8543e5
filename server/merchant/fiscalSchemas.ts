/** The merchant API's schemas of the fiscal receipt: a bill's positions in and out, and a payment's receipt as sent. */
import { MEASURE_NAMES, PAYMENT_METHOD_NAMES, PAYMENT_OBJECT_NAMES, TAX_SYSTEM_NAMES, VAT_NAMES } from '../billing/fiscalCodes';
import { TEXT_LINE } from '../../src/services/rules/freeText';
import { ITEM_NAME_MAX } from '../billing/items';
import { moneySchema } from './moneySchema';

/** The fiscal codes of a position, as readable names (the acquirer's numbers are the server's business). */
const fiscalCodeProperties = {
  vat: { type: 'string', enum: VAT_NAMES, description: 'VAT: none, vat0, vat5, vat7, vat10, vat20, vat22, or the calculated rates vat105 … vat122.' },
  paymentMethod: {
    type: 'string',
    enum: PAYMENT_METHOD_NAMES,
    description: 'How it is paid for (tag 1214): a prepayment for a flat or a car not yet handed over is full_prepayment.',
  },
  paymentObject: { type: 'string', enum: PAYMENT_OBJECT_NAMES, description: 'What it is (tag 1212).' },
} as const;

const quantitySchema = { type: 'number', exclusiveMinimum: 0, maximum: 99999.999, description: 'More than 0, at most 3 decimals.' } as const;

/** A position of the bill's fiscal receipt, as the merchant gives it. */
export const billItemInputSchema = {
  type: 'object',
  required: ['name', 'quantity', 'price', 'vat', 'paymentMethod', 'paymentObject'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: ITEM_NAME_MAX, format: TEXT_LINE },
    quantity: quantitySchema,
    price: { ...moneySchema, description: 'Per unit. quantity × price, rounded to the kopeck, is the position\'s amount.' },
    ...fiscalCodeProperties,
    measure: { type: 'string', enum: MEASURE_NAMES, description: 'The unit (default piece).' },
  },
} as const;

/** What the API answers of any position: a bill's, or a payment's as sent. */
const positionRequired = ['name', 'quantity', 'price', 'amount', 'vat', 'paymentMethod', 'paymentObject', 'measure'] as const;
const positionProperties = {
  name: { type: 'string' },
  quantity: { type: 'number' },
  price: moneySchema,
  amount: moneySchema,
  ...fiscalCodeProperties,
  measure: { type: ['string', 'null'], enum: [...MEASURE_NAMES, null] },
} as const;

/** A position of the bill, as the API answers it. */
export const billItemSchema = {
  type: 'object',
  required: ['position', ...positionRequired],
  additionalProperties: false,
  properties: { position: { type: 'integer', description: '1, 2, … in the order given.' }, ...positionProperties },
} as const;

/** The fiscal receipt of a payment: who issues it, and the positions sent with the acquirer's order. */
export const paymentReceiptSchema = {
  type: 'object',
  required: ['issuer', 'note', 'taxSystem', 'items'],
  additionalProperties: false,
  properties: {
    issuer: {
      type: 'string',
      enum: ['acquirer', 'merchant'],
      description:
        "acquirer: the receipt went with the acquirer's order; its cash register issues it and e-mails it. merchant: no receipt went with an acquirer order (points alone paid, so there is none; or no FISCAL_TAX_SYSTEM): your own cash register must issue it.",
    },
    note: { type: 'string' },
    taxSystem: { type: ['string', 'null'], enum: [...TAX_SYSTEM_NAMES, null] },
    items: {
      type: 'array',
      description: 'The positions as sent: the bill\'s, then the service fee, lowered by the points spent; their amounts add up to the payment\'s amount.',
      items: {
        type: 'object',
        required: ['positionId', 'billPosition', ...positionRequired],
        additionalProperties: false,
        properties: {
          positionId: { type: 'integer' },
          billPosition: { type: ['integer', 'null'], description: "The bill's position this charges; null: the service fee." },
          ...positionProperties,
        },
      },
    },
  },
} as const;

