/**
 * The merchant API's refunds (`/merchant/v1/payments/:orderId…`): refund a successful payment, whole or in part, and
 * read a payment with its refunds. Registered inside the merchant API's plugin, so its key check, limit, error shape and
 * OpenAPI document are the API's own. The refund is written (with its Idempotency-Key's answer) in one transaction,
 * then made at the acquirer in the background: refund.succeeded or refund.failed tells the end.
 */
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { paymentByOrder } from '../payments/queries';
import { itemsOfRefund, refundsOfOrder } from '../payments/refundQueries';
import type { RefundRow } from '../payments/tables';
import type { Store } from '../store/store';
import { ApiError } from './errors';
import { answerOnce } from './idempotency';
import { askRefund } from './refundRequest';
import { createRefundBody, orderIdParams, paymentWithRefundsSchema, refundSchema, refundsSchema } from './refundSchemas';
import { errorResponses, errorSchema, idempotencyHeaders } from './schemas';
import { paymentView, refundView, withDetails } from './views';

// The bearer key, the per-key limit: as every route of this API.
const config = { rateLimit: false, csrf: 'exempt' } as const;
const tags = ['payments'];

const refundsView = async (store: Store, refunds: RefundRow[]) => Promise.all(refunds.map(async (refund) => refundView(refund, await itemsOfRefund(store, refund.id))));

export const refundRoutes: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const store = app.store;

  async function paymentOr404(orderId: string) {
    const payment = await paymentByOrder(store, orderId);
    if (!payment) throw new ApiError(404, 'not_found', 'No payment with this orderId');
    return payment;
  }

  app.post(
    '/payments/:orderId/refunds',
    {
      config,
      schema: {
        tags,
        summary: 'Refund a successful payment, whole or in part',
        description:
          'Answers 201 with the refund, pending: the acquirer is asked at once and refund.succeeded or refund.failed tells the end. ' +
          'No amount: all that is left. A payment not successful: 409 payment_not_refundable; more than is left (with the refunds still pending): 409 refund_exceeds_remaining.',
        headers: idempotencyHeaders,
        params: orderIdParams,
        body: createRefundBody,
        response: { 201: refundSchema, 404: errorSchema, 409: errorSchema, 422: errorSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { orderId } = request.params;
      const answer = await answerOnce(store, request, reply, 201, (tx) => askRefund(tx, orderId, request.body ?? {}, request.headers['idempotency-key'] as string));
      app.gateway.on(store.forRequest(request.id)).refundSoon(orderId);
      return answer;
    },
  );

  app.get(
    '/payments/:orderId',
    { config, schema: { tags, summary: 'A payment, what it has given back and its refunds', params: orderIdParams, response: { 200: paymentWithRefundsSchema, 404: errorSchema, ...errorResponses } } },
    async (request) => {
      const [payment] = await withDetails(store, [await paymentOr404(request.params.orderId)]);
      return { ...paymentView(payment!), refunds: await refundsView(store, await refundsOfOrder(store, request.params.orderId)) };
    },
  );

  app.get(
    '/payments/:orderId/refunds',
    { config, schema: { tags, summary: "A payment's refunds, oldest first", params: orderIdParams, response: { 200: refundsSchema, 404: errorSchema, ...errorResponses } } },
    async (request) => {
      await paymentOr404(request.params.orderId);
      return { data: await refundsView(store, await refundsOfOrder(store, request.params.orderId)) };
    },
  );
};
