/**
 * The merchant API's loyalty points (`/merchant/v1/customers/:custNo/points`): a customer's balance and ledger, and
 * the merchant's credits and debits. The page's points are this same ledger. Registered inside the merchant API's
 * plugin, so its key check, limit, error shape and OpenAPI document are the API's own.
 */
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { adjustPoints, ledgerPage, pointsBalance } from '../loyalty/ledger';
import { TEXT_LINES } from '../platform/patterns';
import { ApiError } from './errors';
import { answerOnce } from './idempotency';
import { custNoParams, errorResponses, errorSchema, idempotencyHeaders, pagedQuery, pageSchema } from './schemas';
import { decodeCursor, encodeCursor, ledgerEntryView } from './views';

const config = { rateLimit: false, csrf: 'exempt' } as const;

export const pointsBody = {
  type: 'object',
  required: ['delta', 'reason'],
  additionalProperties: false,
  properties: {
    delta: { type: 'integer', minimum: -100_000_000, maximum: 100_000_000, not: { const: 0 }, description: 'Points to credit (positive) or debit (negative).' },
    reason: { type: 'string', minLength: 1, maxLength: 200, format: TEXT_LINES },
  },
} as const;

export const ledgerEntrySchema = {
  type: 'object',
  required: ['id', 'delta', 'reason', 'orderId', 'refundId', 'createdAt'],
  additionalProperties: false,
  properties: {
    id: { type: 'integer' },
    delta: { type: 'integer' },
    reason: { type: 'string' },
    orderId: { type: ['string', 'null'], description: 'The payment that spent the points, if one did.' },
    refundId: { type: ['string', 'null'], description: 'The refund that gave the points back, if one did.' },
    createdAt: { type: 'string', format: 'date-time' },
  },
} as const;

export const pointsChangeSchema = {
  type: 'object',
  required: ['custNo', 'balance', 'entry'],
  additionalProperties: false,
  properties: { custNo: { type: 'string' }, balance: { type: 'integer' }, entry: ledgerEntrySchema },
} as const;

export const ledgerQuery = pagedQuery({});

export const ledgerPageSchema = pageSchema(['custNo', 'balance', 'ledger'], {
  custNo: { type: 'string' },
  balance: { type: 'integer' },
  ledger: { type: 'array', items: ledgerEntrySchema, description: 'Newest first.' },
});

/** A ledger page's cursor: the id of the last entry read (the ledger is read newest first). */
const isLedgerPosition = (value: unknown): value is number => Number.isSafeInteger(value);

export const pointsRoutes: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const store = app.store;

  app.post(
    '/customers/:custNo/points',
    {
      config,
      schema: {
        tags: ['points'],
        summary: "Credit or debit a customer's loyalty points",
        description: 'A debit that would take the balance below zero is refused with 409.',
        headers: idempotencyHeaders,
        params: custNoParams,
        body: pointsBody,
        response: { 200: pointsChangeSchema, 409: errorSchema, 422: errorSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      answerOnce(store, request, reply, 200, async (tx) => {
        const { custNo } = request.params;
        const { balance, entry } = await adjustPoints(tx, custNo, request.body.delta, request.body.reason);
        return { custNo, balance, entry: ledgerEntryView(entry) };
      }),
  );

  app.get(
    '/customers/:custNo/points',
    {
      config,
      schema: {
        tags: ['points'],
        summary: "A customer's balance and ledger, newest first",
        params: custNoParams,
        querystring: ledgerQuery,
        response: { 200: ledgerPageSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { custNo } = request.params;
      const before = request.query.cursor === undefined ? undefined : decodeCursor(request.query.cursor, isLedgerPosition);
      if (request.query.cursor !== undefined && before === undefined) {
        throw new ApiError(400, 'invalid_request', 'The cursor is not one this API gave', [{ field: 'cursor', message: 'is not a cursor of this API' }]);
      }
      const size = Number(request.query.limit ?? 50);
      const [balance, rows] = await Promise.all([pointsBalance(store, custNo), ledgerPage(store, custNo, before, size + 1)]);
      const page = rows.slice(0, size);
      const last = page.at(-1);
      return { custNo, balance, ledger: page.map(ledgerEntryView), nextCursor: rows.length > size && last ? encodeCursor(last.id) : null };
    },
  );
};
