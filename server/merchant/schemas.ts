/**
 * The merchant API's JSON schemas: they validate every request, type the handlers (json-schema-to-ts) and are the
 * OpenAPI document (@fastify/swagger reads them). Money is a decimal string with two places, never a number. Every
 * free-text field names its format: `text-line` (one line, no control characters) or `text-lines` (tab and line feed
 * allowed), as src/services/rules/freeText.ts defines them.
 */
import { TEXT_LINE } from '../../src/services/rules/freeText';
import { paymentTypeCodes } from '../../src/services/rules/paymentKinds';
import { ITEMS_MAX } from '../billing/items';
import { MONEY_PATTERN } from '../platform/money';
import { billItemInputSchema, billItemSchema, paymentReceiptSchema } from './fiscalSchemas';
import { moneySchema } from './moneySchema';
import { OBJECT_OID_PATTERN } from '../platform/patterns';

export { moneySchema };

/** ONE error shape for the whole API. */
export const errorSchema = {
  type: 'object',
  description:
    'Every refusal of the API: a machine-readable code, a message, and for bad input the fields at fault. `validation_error` when a ' +
    'free-text field (format `text-line` or `text-lines`) holds a character no text may hold, whatever else is wrong with the ' +
    'request (every field at fault is still listed); `invalid_request` for any other bad input.',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      additionalProperties: false,
      properties: {
        code: {
          type: 'string',
          enum: [
            'invalid_request',
            'validation_error',
            'unauthorized',
            'not_found',
            'bill_exists',
            'bill_paid',
            'bill_cancelled',
            'bill_expired',
            'balance_too_low',
            'payment_not_refundable',
            'refund_exceeds_remaining',
            'already_handed_over',
            'nothing_to_close',
            'idempotency_key_reused',
            'rate_limited',
            'internal_error',
          ],
        },
        message: { type: 'string' },
        fields: {
          type: 'array',
          items: {
            type: 'object',
            required: ['field', 'message'],
            additionalProperties: false,
            properties: { field: { type: 'string' }, message: { type: 'string' } },
          },
        },
      },
    },
  },
} as const;

export const errorResponses = {
  400: errorSchema,
  401: errorSchema,
  429: errorSchema,
  500: errorSchema,
} as const;

/** Every POST carries one: the same key with the same body answers the first answer again. */
export const idempotencyHeaders = {
  type: 'object',
  required: ['idempotency-key'],
  properties: {
    'idempotency-key': {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x21-\\x7e]+$',
      description: 'A unique key per operation (a UUID is good); kept 24 hours.',
    },
  },
} as const;

export { paymentTypeCodes };

const custNoSchema = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' } as const;

export const objectOidParams = {
  type: 'object',
  required: ['objectOID'],
  properties: { objectOID: { type: 'string', pattern: OBJECT_OID_PATTERN } },
} as const;

export const custNoParams = { type: 'object', required: ['custNo'], properties: { custNo: custNoSchema } } as const;

export const createBillBody = {
  type: 'object',
  required: ['purpose', 'amount'],
  additionalProperties: false,
  properties: {
    objectOID: { type: 'string', pattern: OBJECT_OID_PATTERN, description: "The merchant's id of the bill; generated when absent; unique." },
    purpose: { type: 'string', minLength: 1, maxLength: 500, format: TEXT_LINE },
    amount: moneySchema,
    parts: {
      type: 'object',
      required: ['minimum'],
      additionalProperties: false,
      description:
        'The bill may be paid in several payments (two cards, a card and the fast-payment system), each at least minimum, or what remains when that is less. Absent: one payment of the whole amount.',
      properties: {
        minimum: {
          type: 'object',
          required: ['value'],
          additionalProperties: false,
          properties: { value: { type: 'string', pattern: MONEY_PATTERN }, currency: { type: 'string', enum: ['RUB'] } },
        },
      },
    },
    customer: {
      type: 'object',
      additionalProperties: false,
      properties: {
        name: { type: 'string', maxLength: 200, format: TEXT_LINE },
        phone: { type: 'string', pattern: '^79[0-9]{9}$', description: '11 digits starting with 79.' },
        email: { type: 'string', maxLength: 254, format: TEXT_LINE },
        custNo: { ...custNoSchema, description: 'The loyalty customer number; points need it.' },
      },
    },
    noReg: { type: 'boolean', default: true, description: 'Pay without a loyalty account (default true).' },
    points: {
      type: 'object',
      required: ['enabled'],
      additionalProperties: false,
      properties: {
        enabled: { type: 'boolean' },
        usefulLimit: { type: 'integer', minimum: 0, maximum: 100_000_000, description: 'At most this many points may go to this bill.' },
      },
    },
    paymentTypes: {
      type: 'array',
      minItems: 1,
      maxItems: 5,
      description: 'Default: bank card (1.5 %), fast payment (free), bank-app pay (0.5 %).',
      items: {
        type: 'object',
        required: ['code', 'name'],
        additionalProperties: false,
        properties: {
          code: { type: 'string', enum: paymentTypeCodes },
          name: { type: 'string', minLength: 1, maxLength: 100, format: TEXT_LINE },
          commission: {
            type: 'object',
            required: ['value'],
            additionalProperties: false,
            properties: { value: { type: 'string', pattern: MONEY_PATTERN }, currency: { type: 'string', enum: ['RUB'] } },
          },
          maximum: {
            type: 'object',
            required: ['value'],
            additionalProperties: false,
            description:
              "The most one payment this way takes. Default: the server's SBP_PAYMENT_MAXIMUM (1000000.00) for SBP, no cap for the others. A way capped below the amount can pay a part of a bill with parts; on a bill without parts the payer sees it unavailable for this amount.",
            properties: { value: { type: 'string', pattern: MONEY_PATTERN }, currency: { type: 'string', enum: ['RUB'] } },
          },
          showAggregatorOffer: { type: 'boolean' },
          showExecuterOffer: { type: 'boolean' },
        },
      },
    },
    expiresAt: { type: 'string', format: 'date-time', description: 'After this the bill is expired and takes no payment.' },
    returnUrl: { type: 'string', maxLength: 2000, format: TEXT_LINE, description: 'Where "back to the shop" leads after paying: https (http on localhost only).' },
    capture: {
      type: 'string',
      enum: ['automatic', 'manual'],
      description:
        'automatic (default): the money is taken when the payer pays. manual: it is held on the card (payment and bill status held, with heldUntil) until you capture or release it; cards only.',
    },
    items: {
      type: 'array',
      minItems: 1,
      maxItems: ITEMS_MAX,
      items: billItemInputSchema,
      description:
        "The positions of the fiscal receipt; their amounts must add up to amount.value to the kopeck. Absent: one position, the purpose, quantity 1, the whole amount, with the server's FISCAL_DEFAULT_* codes.",
    },
  },
} as const;

export const paymentSchema = {
  type: 'object',
  required: ['orderId', 'objectOID', 'method', 'amount', 'part', 'commission', 'pointsUsed', 'status', 'refunded', 'heldUntil', 'receiptEmail', 'receipt', 'createdAt', 'updatedAt'],
  additionalProperties: false,
  properties: {
    orderId: { type: 'string' },
    objectOID: { type: 'string' },
    method: { type: 'string', enum: paymentTypeCodes },
    amount: { ...moneySchema, description: 'What the payer was charged: part, plus commission, less the points used.' },
    part: { ...moneySchema, description: "What of the bill's amount this payment pays: the whole amount, or a part of a bill with parts." },
    commission: moneySchema,
    pointsUsed: { type: 'integer' },
    status: {
      type: 'string',
      enum: ['created', 'held', 'success', 'declined', 'released', 'refunded'],
      description:
        "held: the money is held on the card until you capture (success, for the amount captured) or release it (released). refunded: its bill could not keep it (already paid, or closed) and it is given back whole. A successful payment stays success when you refund it: see refunded.",
    },
    refunded: { ...moneySchema, description: 'What its refunds have given back so far (succeeded ones only).' },
    heldUntil: { type: ['string', 'null'], format: 'date-time', description: 'A held payment: when the server releases the hold by itself (null: not held).' },
    receiptEmail: { type: ['string', 'null'] },
    receipt: paymentReceiptSchema,
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
} as const;

/** A closing receipt (full settlement) of one acquirer order of a bill handed over. */
export const closingReceiptSchema = {
  type: 'object',
  required: ['orderId', 'receiptId', 'status', 'amount'],
  additionalProperties: false,
  properties: {
    orderId: { type: 'string', description: 'The payment (acquirer order) whose prepayment the receipt closes.' },
    receiptId: { type: ['string', 'null'], description: "The acquirer's fiscal receipt id; null until its answer to doReceipt is known." },
    status: {
      type: 'string',
      enum: ['pending', 'registered', 'failed'],
      description: 'pending until the fiscal data operator registers it (read no sooner than FISCAL_STATUS_DELAY_MS after sending); failed for good, with error, once it cannot be sent again.',
    },
    amount: { ...moneySchema, description: 'What it settles: the prepaid positions as charged, less what refunds gave back.' },
    error: { type: 'string', description: "Why it failed: the gateway's error and why the server could not send it again." },
  },
} as const;

/** POST /bills/{objectOID}/handover: when the goods were handed over (default: now). */
export const handoverBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { handedOverAt: { type: 'string', format: 'date-time', description: 'When the goods were handed over; default: now.' } },
} as const;

export const handoverSchema = {
  type: 'object',
  required: ['objectOID', 'status', 'handedOverAt', 'closingReceipts'],
  additionalProperties: false,
  properties: {
    objectOID: { type: 'string' },
    status: { type: 'string', enum: ['handed_over'] },
    handedOverAt: { type: 'string', format: 'date-time' },
    closingReceipts: { type: 'array', items: closingReceiptSchema },
  },
} as const;

export const billSchema = {
  type: 'object',
  required: [
    'objectOID',
    'status',
    'payUrl',
    'purpose',
    'amount',
    'parts',
    'paid',
    'remaining',
    'refunded',
    'items',
    'customer',
    'noReg',
    'points',
    'paymentTypes',
    'expiresAt',
    'returnUrl',
    'capture',
    'createdAt',
    'paidAt',
    'closedAt',
    'handedOverAt',
    'payments',
    'closingReceipts',
  ],
  additionalProperties: false,
  properties: {
    objectOID: { type: 'string' },
    status: {
      type: 'string',
      enum: ['unpaid', 'partially_paid', 'held', 'paid', 'handed_over', 'cancelled', 'expired'],
      description:
        'partially_paid: a bill with parts some of which is paid; paid once nothing remains; handed_over once its goods were handed over (POST /bills/{objectOID}/handover). held: its money is held on the card, for the merchant to capture or release. A refund never reopens a paid bill.',
    },
    payUrl: {
      type: 'string',
      description:
        'The checkout page to send the payer to: `/pay/` and the bill\'s public link id (`pl_` and 24 random characters), which is not the objectOID. The objectOID opens nothing on the payer\'s side; this API keeps addressing the bill by it.',
    },
    purpose: { type: 'string' },
    amount: moneySchema,
    parts: {
      type: ['object', 'null'],
      required: ['minimum'],
      additionalProperties: false,
      description: 'The least one payment pays when the bill may be paid in several; null: one payment of the whole amount.',
      properties: { minimum: moneySchema },
    },
    paid: { ...moneySchema, description: "Money its payments took for it and kept: their parts, less what refunds gave back." },
    remaining: { ...moneySchema, description: 'What is still to pay (0.00 once paid; refunds do not reopen it).' },
    refunded: { ...moneySchema, description: "What refunds gave back of its payments' parts (paid is less by this)." },
    items: { type: 'array', items: billItemSchema, description: "The fiscal receipt's positions (one, the purpose, when the merchant gave none)." },
    customer: {
      type: 'object',
      required: ['name', 'phone', 'email', 'custNo'],
      additionalProperties: false,
      properties: { name: { type: 'string' }, phone: { type: ['string', 'null'] }, email: { type: ['string', 'null'] }, custNo: { type: ['string', 'null'] } },
    },
    noReg: { type: 'boolean' },
    points: {
      type: 'object',
      required: ['enabled', 'usefulLimit'],
      additionalProperties: false,
      properties: { enabled: { type: 'boolean' }, usefulLimit: { type: 'integer' } },
    },
    paymentTypes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['code', 'name', 'commission', 'maximum', 'showAggregatorOffer', 'showExecuterOffer'],
        additionalProperties: false,
        properties: {
          code: { type: 'string', enum: paymentTypeCodes },
          name: { type: 'string' },
          commission: moneySchema,
          maximum: { ...moneySchema, type: ['object', 'null'], description: 'The most one payment this way takes; null: no cap.' },
          showAggregatorOffer: { type: 'boolean' },
          showExecuterOffer: { type: 'boolean' },
        },
      },
    },
    expiresAt: { type: ['string', 'null'], format: 'date-time' },
    returnUrl: { type: ['string', 'null'] },
    capture: { type: 'string', enum: ['automatic', 'manual'] },
    createdAt: { type: 'string', format: 'date-time' },
    paidAt: { type: ['string', 'null'], format: 'date-time' },
    closedAt: { type: ['string', 'null'], format: 'date-time', description: 'When it was cancelled or expired.' },
    handedOverAt: { type: ['string', 'null'], format: 'date-time', description: 'When its goods were handed over; null: not yet.' },
    payments: { type: 'array', items: paymentSchema },
    closingReceipts: { type: 'array', items: closingReceiptSchema, description: 'Its closing receipts (full settlement), one per order that took a prepayment; none before the handover.' },
  },
} as const;

/**
 * Every list of the API is read a page at a time, alike: the query takes the list's own filters, `limit` and `cursor`
 * (the previous page's nextCursor); the page answers the list's fields and `nextCursor`.
 */
export const pagedQuery = <const F>(filters: F) =>
  ({
    type: 'object',
    additionalProperties: false,
    properties: {
      ...filters,
      limit: { type: 'string', pattern: '^([1-9][0-9]?|100)$', description: '1 to 100 (default 50).' },
      cursor: { type: 'string', maxLength: 200, format: TEXT_LINE, description: 'nextCursor of the previous page.' },
    },
  }) as const;

export const pageSchema = <const R extends readonly string[], const P>(required: R, properties: P) =>
  ({
    type: 'object',
    required: [...required, 'nextCursor'],
    additionalProperties: false,
    properties: { ...properties, nextCursor: { type: ['string', 'null'], description: 'Pass as cursor for the next page; null on the last.' } },
  }) as const;

export const paymentsQuery = pagedQuery({
  status: { type: 'string', enum: ['created', 'held', 'success', 'declined', 'released', 'refunded'] },
  since: { type: 'string', format: 'date-time', description: 'Only payments created at or after this time.' },
});

export const paymentsPageSchema = pageSchema(['data'], { data: { type: 'array', items: paymentSchema } });
