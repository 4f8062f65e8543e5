/**
 * The merchant API's handover (`POST /merchant/v1/bills/:objectOID/handover`): the goods of a paid bill are handed
 * over, and each acquirer order that took a prepayment for it gets its closing receipt (full settlement). The bill's
 * move and its receipts' rows are written with the Idempotency-Key's answer in one transaction; the receipts then go to
 * the acquirer's fiscal API before the answer, which lists them as they then stand. The same key again answers the
 * same handover (its receipts as they now stand); another key on a bill handed over is 409 already_handed_over.
 */
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { billByOid } from '../billing/queries';
import { closingReceiptsOfBill } from '../payments/closingReceiptQueries';
import { handOver, HandoverRefused } from '../payments/closingReceipts';
import { ApiError } from './errors';
import { fingerprint, idempotent } from './idempotency';
import { errorResponses, errorSchema, handoverBody, handoverSchema, idempotencyHeaders, objectOidParams } from './schemas';
import { closingReceiptView, iso } from './views';

// The bearer key, the per-key limit: as every route of this API.
const config = { rateLimit: false, csrf: 'exempt' } as const;

/** A handover may be told a little after the fact, never ahead of it (a clock a few minutes fast is forgiven). */
const FUTURE_SLACK_MS = 5 * 60_000;

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
      const { objectOID } = request.params;
      const at = request.body?.handedOverAt === undefined ? store.now() : Date.parse(request.body.handedOverAt);
      if (at > store.now() + FUTURE_SLACK_MS) {
        throw new ApiError(400, 'invalid_request', 'The request has invalid fields', [{ field: 'handedOverAt', message: 'is in the future: the goods must be handed over already' }]);
      }
      const key = { keyId: request.merchantKeyId!, idempotencyKey: request.headers['idempotency-key'] as string, fingerprint: fingerprint(request.method, request.url, request.body), statusCode: 200 };
      const answer = await idempotent(store, key, async (tx) => {
        try {
          const bill = await handOver(tx, objectOID, at, app.appOptions.fiscal.ffd);
          return { objectOID: bill.oid, handedOverAt: iso(bill.handed_over_at)! };
        } catch (error) {
          if (error instanceof HandoverRefused) throw new ApiError(error.kind === 'not_found' ? 404 : 409, error.kind, error.message);
          throw error;
        }
      });
      if (answer.replayed) void reply.header('idempotent-replayed', 'true');
      // Each receipt not yet sent goes now (each once); a replay sends what a lost process left unsent.
      await app.gateway.sendClosingReceipts(objectOID);
      const bill = (await billByOid(store, objectOID))!;
      const receipts = await closingReceiptsOfBill(store, objectOID);
      return reply.code(200).send({ objectOID, status: 'handed_over' as const, handedOverAt: iso(bill.handed_over_at)!, closingReceipts: receipts.map(closingReceiptView) });
    },
  );
};
