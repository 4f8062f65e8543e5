/**
 * The merchant API's handover (`POST /merchant/v1/bills/:objectOID/handover`): the goods of a paid bill are handed
 * over, and each acquirer order that took a prepayment for it gets its closing receipt (full settlement). The handover
 * itself is handoverRequest.ts's: the desk's door comes in through it too.
 */
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { handOverOnce } from './handoverRequest';
import { fingerprint } from './idempotency';
import { errorResponses, errorSchema, handoverBody, handoverSchema, idempotencyHeaders, objectOidParams } from './schemas';

// The bearer key, the per-key limit: as every route of this API.
const config = { rateLimit: false, csrf: 'exempt' } as const;

export const handoverRoutes: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const store = app.store;

  app.post(
    '/bills/:objectOID/handover',
    {
      config,
      schema: {
        tags: ['bills'],
        summary: 'Hand a paid bill over: its closing receipts (full settlement)',
        description:
          'For each payment that took a prepayment for the bill (one, or one per part), a closing receipt goes to the fiscal data operator through ' +
          "the acquirer: the order's positions as charged less what refunds gave back, paid by offsetting the prepayment. The bill becomes handed_over. " +
          'receipt.registered or receipt.failed tells each receipt\'s fate. Handed over already (another Idempotency-Key): 409 already_handed_over; ' +
          'not paid in full, paid only with points, or its receipts were not prepayments: 409 nothing_to_close.',
        headers: idempotencyHeaders,
        params: objectOidParams,
        body: handoverBody,
        response: { 200: handoverSchema, 404: errorSchema, 409: errorSchema, 422: errorSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const key = { keyId: request.merchantKeyId!, idempotencyKey: request.headers['idempotency-key'] as string, fingerprint: fingerprint(request.method, request.url, request.body) };
      // The handover, its closing receipts and the events they cause are part of this request.
      const work = store.forRequest(request.id);
      const { replayed, handover } = await handOverOnce(work, app.gateway.on(work), app.appOptions.fiscal.ffd, key, request.params.objectOID, request.body?.handedOverAt);
      if (replayed) void reply.header('idempotent-replayed', 'true');
      return reply.code(200).send(handover);
    },
  );
};
