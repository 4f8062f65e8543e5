/** The merchant API's schemas of refunds: asking for one, a refund as answered, a payment with its refunds. */
import { TEXT_LINES } from '../../src/services/rules/freeText';
import { orderIdSchema } from '../platform/schemas';
import { moneySchema } from './moneySchema';
import { paymentSchema } from './schemas';

export const orderIdParams = { type: 'object', required: ['orderId'], properties: { orderId: orderIdSchema } } as const;

export const createRefundBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    amount: { ...moneySchema, description: 'How much to give back, more than 0.00; absent: all that is left (or what `items` add up to).' },
    reason: { type: 'string', minLength: 1, maxLength: 500, format: TEXT_LINES, description: 'Why, for your records (the payer does not see it).' },
    items: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      description:
        "The positions returned, for the refund's fiscal receipt (only for a payment whose order carried one: see the payment's receipt.items). Absent: the amount is spread over the positions in proportion to what is left of each.",
      items: {
        type: 'object',
        required: ['positionId'],
        additionalProperties: false,
        properties: {
          positionId: { type: 'integer', minimum: 1, description: "The position's positionId in the payment's receipt." },
          amount: { ...moneySchema, description: 'How much of it; absent: all that is left of it.' },
          quantity: { type: 'number', exclusiveMinimum: 0, maximum: 99999.999, description: 'How many units go back; absent: its quantity as charged.' },
        },
      },
    },
  },
} as const;

export const refundSchema = {
  type: 'object',
  required: ['id', 'orderId', 'amount', 'status', 'reason', 'automatic', 'items', 'acquirerAnswer', 'createdAt', 'finishedAt'],
  additionalProperties: false,
  properties: {
    id: { type: 'string' },
    orderId: { type: 'string' },
    amount: moneySchema,
    status: {
      type: 'string',
      enum: ['pending', 'succeeded', 'failed'],
      description: 'pending until the acquirer has said: then refund.succeeded or refund.failed is sent.',
    },
    reason: { type: ['string', 'null'] },
    automatic: { type: 'boolean', description: 'true: the refund of a payment its bill could not keep (already paid, or closed), made without being asked.' },
    items: {
      type: 'array',
      description: 'The positions returned (none: the order carried no fiscal receipt).',
      items: {
        type: 'object',
        required: ['positionId', 'quantity', 'amount'],
        additionalProperties: false,
        properties: { positionId: { type: 'integer' }, quantity: { type: 'number' }, amount: moneySchema },
      },
    },
    acquirerAnswer: { type: ['string', 'null'], description: "What the acquirer answered (a refusal's error), once it has." },
    createdAt: { type: 'string', format: 'date-time' },
    finishedAt: { type: ['string', 'null'], format: 'date-time' },
  },
} as const;

export const refundsSchema = {
  type: 'object',
  required: ['data'],
  additionalProperties: false,
  properties: { data: { type: 'array', items: refundSchema, description: 'Oldest first.' } },
} as const;

/** One payment with its refunds. */
export const paymentWithRefundsSchema = {
  ...paymentSchema,
  required: [...paymentSchema.required, 'refunds'],
  properties: { ...paymentSchema.properties, refunds: { type: 'array', items: refundSchema, description: 'Oldest first.' } },
} as const;
