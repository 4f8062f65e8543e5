/**
 * The desk's payments: a refund (the merchant API's body, through the same domain code, under an Idempotency-Key,
 * made at the acquirer at once), the payments' figures, and the exports as CSV.
 */
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { idempotencyHeaders } from '../merchant/schemas';
import { askRefund } from '../merchant/refundRequest';
import { createRefundBody } from '../merchant/refundSchemas';
import { deskRoute } from './access';
import { audit } from './audit';
import { deskOnce, type DeskDeps } from './deps';
import { DeskError } from './errors';
import { billsCsv, EXPORT_MAX_DAYS, paymentsCsv } from './exports';
import { dayOfName, paymentFigures } from './figures';
import { exportQuery, orderParams } from './schemas';

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
      app.gateway.refundSoon(orderId);
      return answer;
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
