/**
 * The merchant API's holds (`/merchant/v1/payments/:orderId/capture`, `…/release`): a bill that captures by hand has its
 * payment's money held on the card; the merchant takes it (all or a part, the rest let go) or lets it go. Registered
 * inside the merchant API's plugin, so its key check, limit, error shape and OpenAPI document are the API's own.
 *
 * The request's Idempotency-Key is written with the move that starts the capture or release, under the attempt's lease;
 * the acquirer is then told once, and the answer is the payment as it then stands. The same request again answers the
 * payment as it now is, and tells the acquirer nothing more.
 */
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { paymentStatusOf } from '../lifecycle/attempt';
import { beginCapture, beginRelease } from '../payments/holds';
import { paymentByOrder } from '../payments/queries';
import type { AttemptRow } from '../payments/tables';
import { parseMoney } from '../platform/money';
import type { Store } from '../store/store';
import { ApiError } from './errors';
import { fingerprint, idempotent } from './idempotency';
import { moneySchema } from './moneySchema';
import { orderIdParams } from './refundSchemas';
import { errorResponses, errorSchema, idempotencyHeaders, paymentSchema } from './schemas';
import { paymentView, withDetails } from './views';

const config = { rateLimit: false, csrf: 'exempt' } as const;
const tags = ['payments'];

const captureBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    amount: { ...moneySchema, description: 'How much of the hold to take, more than 0.00 and at most what is held; absent: all of it. The rest is released.' },
  },
} as const;

export const holdRoutes: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const store = app.store;

  /**
   * Runs `begin` under the request's Idempotency-Key (a replay writes nothing), then tells the acquirer, and answers
   * the payment as it now is. `expected`: the status the request leads to; a payment still held after a capture or
   * release went out is the acquirer's silence, told as 502.
   */
  async function settle(request: FastifyRequest, reply: FastifyReply, orderId: string, begin: (tx: Store) => Promise<AttemptRow>) {
    if (!(await paymentByOrder(store, orderId))) throw new ApiError(404, 'not_found', 'No payment with this orderId');
    const key = request.headers['idempotency-key'] as string;
    let replayed = false;
    await app.gateway.settleHold(orderId, async () => {
      const answer = await idempotent(store, { keyId: request.merchantKeyId!, idempotencyKey: key, fingerprint: fingerprint(request.method, request.url, request.body), statusCode: 200 }, async (tx) => {
        await begin(tx);
        return { orderId };
      });
      replayed = answer.replayed;
      return !replayed;
    });
    if (replayed) void reply.header('idempotent-replayed', 'true');
    const [payment] = await withDetails(store, [(await paymentByOrder(store, orderId))!]);
    if (paymentStatusOf(payment!.state) === 'held') {
      throw new ApiError(502, 'acquirer_unavailable', 'The acquirer did not confirm it: the payment is still held. Try again (with a new Idempotency-Key).');
    }
    return reply.code(200).send(paymentView(payment!));
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
      const amount = request.body?.amount;
      const kopecks = amount ? (parseMoney(amount.value) ?? -1) : null;
      return settle(request, reply, orderId, (tx) => beginCapture(tx, orderId, kopecks));
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
      return settle(request, reply, orderId, (tx) => beginRelease(tx, orderId, 'merchant'));
    },
  );
};
