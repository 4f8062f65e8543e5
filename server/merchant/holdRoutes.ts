/**
 * The merchant API's holds (`/merchant/v1/payments/:orderId/capture`, `…/release`): a bill that captures by hand has its
 * payment's money held on the card; the merchant takes it (all or a part, the rest let go) or lets it go. Registered
 * inside the merchant API's plugin, so its key check, limit, error shape and OpenAPI document are the API's own.
 *
 * The capture or release itself, with its Idempotency-Key and the acquirer told once, is holdRequest.ts's: the desk's
 * door comes in through it too.
 */
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { captureBody, captureKopecksOf, settleHoldOnce, type HoldMove } from './holdRequest';
import { fingerprint } from './idempotency';
import { orderIdParams } from './refundSchemas';
import { errorResponses, errorSchema, idempotencyHeaders, paymentSchema } from './schemas';

const config = { rateLimit: false, csrf: 'exempt' } as const;
const tags = ['payments'];

export const holdRoutes: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const store = app.store;

  /** The move under the request's Idempotency-Key and the merchant's key (holdRequest.ts), answered as the payment now is. */
  async function settle(request: FastifyRequest, reply: FastifyReply, orderId: string, move: HoldMove) {
    const key = { keyId: request.merchantKeyId!, idempotencyKey: request.headers['idempotency-key'] as string, fingerprint: fingerprint(request.method, request.url, request.body) };
    // The move, the acquirer's call and the events they cause are part of this request.
    const work = store.forRequest(request.id);
    const { replayed, payment } = await settleHoldOnce(work, app.gateway.on(work), key, orderId, move);
    if (replayed) void reply.header('idempotent-replayed', 'true');
    return reply.code(200).send(payment);
  }

  app.post(
    '/payments/:orderId/capture',
    {
      config,
      // No body is a capture of all of it, as `{}` is.
      preValidation: async (request) => {
        (request as { body: unknown }).body ??= {};
      },
      schema: {
        tags,
        summary: 'Capture a held payment, whole or in part',
        description:
          'Takes the held money (deposit.do): the payment becomes success for the amount captured, the bill paid; payment.succeeded and bill.paid follow. ' +
          'Less than held: the rest is released, and the fiscal receipt is for the positions captured. Not held: 409 payment_not_held; above the hold: 409 capture_exceeds_held.',
        headers: idempotencyHeaders,
        params: orderIdParams,
        body: captureBody,
        response: { 200: paymentSchema, 404: errorSchema, 409: errorSchema, 422: errorSchema, 502: errorSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { orderId } = request.params;
      return settle(request, reply, orderId, { kind: 'capture', kopecks: captureKopecksOf(request.body) });
    },
  );

  app.post(
    '/payments/:orderId/release',
    {
      config,
      schema: {
        tags,
        summary: 'Release a held payment',
        description:
          'Lets the held money go (reverse.do), at no fee: the payment becomes released, the bill unpaid again (payable, or yours to cancel); payment.released follows with reason merchant. Not held: 409 payment_not_held.',
        headers: idempotencyHeaders,
        params: orderIdParams,
        response: { 200: paymentSchema, 404: errorSchema, 409: errorSchema, 422: errorSchema, 502: errorSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { orderId } = request.params;
      return settle(request, reply, orderId, { kind: 'release' });
    },
  );
};
