/**
 * The desk's payments: a refund (the merchant API's body, through the same domain code, under an Idempotency-Key,
 * made at the acquirer at once); a hold's capture and release, and a paid bill's handover (its closing receipts),
 * through the merchant API's own requests (holdRequest.ts, handoverRequest.ts) with the audit line written in the same
 * transaction as the move; the payments' figures, and the exports as CSV.
 */
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyRequest } from 'fastify';
import { handOverOnce } from '../merchant/handoverRequest';
import { captureBody, captureKopecksOf, settleHoldOnce, type HoldMove } from '../merchant/holdRequest';
import { fingerprint } from '../merchant/idempotency';
import { handoverBody, idempotencyHeaders } from '../merchant/schemas';
import { formatMoney } from '../platform/money';
import { askRefund } from '../merchant/refundRequest';
import { createRefundBody } from '../merchant/refundSchemas';
import { deskRoute } from './access';
import { audit } from './audit';
import { deskOnce, type DeskDeps } from './deps';
import { DeskError } from './errors';
import { billsCsv, EXPORT_MAX_DAYS, paymentsCsv } from './exports';
import { dayOfName, paymentFigures } from './figures';
import { billParams, exportQuery, orderParams } from './schemas';

export const paymentRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: DeskDeps }> = async (app) => {
  const store = app.store;

  app.post(
    '/payments/:orderId/refunds',
    { config: deskRoute('payments.refund'), schema: { headers: idempotencyHeaders, params: orderParams, body: createRefundBody } },
    async (request, reply) => {
      const staff = request.staff!;
      const { orderId } = request.params;
      const answer = await deskOnce(store, request, reply, 201, async (tx) => {
        const refund = await askRefund(tx, orderId, request.body ?? {}, request.headers['idempotency-key'] as string);
        await audit(tx, staff, 'refund.requested', orderId, { refund: refund.id, amount: refund.amount.value, ...(refund.reason ? { reason: refund.reason } : {}) });
        return refund;
      });
      app.gateway.on(store.forRequest(request.id)).refundSoon(orderId);
      return answer;
    },
  );

  /** The desk's key for a request: the staff member's own (`desk:<id>`), apart from the API keys'. */
  const keyOf = (request: FastifyRequest) => ({
    keyId: `desk:${request.staff!.id}`,
    idempotencyKey: request.headers['idempotency-key'] as string,
    fingerprint: fingerprint(request.method, request.url, request.body),
  });

  async function settle(request: FastifyRequest, orderId: string, move: HoldMove) {
    const staff = request.staff!;
    const details = move.kind === 'capture' ? { amount: move.kopecks === null ? 'all' : formatMoney(move.kopecks) } : null;
    // The move, the acquirer's call, the audit line and the events are part of this request.
    const work = store.forRequest(request.id);
    const { payment } = await settleHoldOnce(work, app.gateway.on(work), keyOf(request), orderId, move, (tx) =>
      audit(tx, staff, move.kind === 'capture' ? 'hold.captured' : 'hold.released', orderId, details),
    );
    return payment;
  }

  app.post(
    '/payments/:orderId/capture',
    {
      config: deskRoute('payments.capture'),
      // No body is a capture of all of it, as `{}` is.
      preValidation: async (request) => {
        (request as { body: unknown }).body ??= {};
      },
      schema: { headers: idempotencyHeaders, params: orderParams, body: captureBody },
    },
    async (request) => settle(request, request.params.orderId, { kind: 'capture', kopecks: captureKopecksOf(request.body) }),
  );

  app.post(
    '/payments/:orderId/release',
    { config: deskRoute('payments.capture'), schema: { headers: idempotencyHeaders, params: orderParams } },
    async (request) => settle(request, request.params.orderId, { kind: 'release' }),
  );

  app.post(
    '/bills/:objectOID/handover',
    { config: deskRoute('handover.mark'), schema: { headers: idempotencyHeaders, params: billParams, body: handoverBody } },
    async (request) => {
      const staff = request.staff!;
      const { objectOID } = request.params;
      const work = store.forRequest(request.id);
      const { handover } = await handOverOnce(work, app.gateway.on(work), app.appOptions.fiscal.ffd, keyOf(request), objectOID, request.body?.handedOverAt ?? undefined, (tx) =>
        audit(tx, staff, 'bill.handed_over', objectOID),
      );
      return handover;
    },
  );

  app.get('/figures', { config: deskRoute('bills.read') }, async () => paymentFigures(store));

  for (const kind of ['payments', 'bills'] as const) {
    app.get(`/export/${kind}.csv`, { config: deskRoute('payments.export'), schema: { querystring: exportQuery } }, async (request, reply) => {
      const from = dayOfName(request.query.from);
      const to = dayOfName(request.query.to);
      if (from === undefined || to === undefined || to < from || to - from >= EXPORT_MAX_DAYS) {
        throw new DeskError(400, 'invalid_request', `Период — от одного дня до ${EXPORT_MAX_DAYS} дней, начало не позже конца`, [{ field: 'from', message: 'проверьте даты' }]);
      }
      const made = kind === 'payments' ? await paymentsCsv(store, from, to) : await billsCsv(store, from, to, app.appOptions.publicUrl);
      const staff = request.staff!;
      await store.transaction((tx) => audit(tx, staff, 'payments.exported', null, { kind, from: request.query.from, to: request.query.to, rows: made.rows }));
      const name = `${kind === 'payments' ? 'platezhi' : 'scheta'}_${request.query.from}_${request.query.to}.csv`;
      return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${name}"`).send(made.csv);
    });
  }
};
