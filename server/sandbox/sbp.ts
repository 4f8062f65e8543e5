import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { ORDER_STATUS } from '../acquirer/rbs';
import { roublesText } from '../platform/money';
import { html, type Html } from '../platform/render';
import { otherParty, sandboxPage } from './party';
import { orderIdSchema } from '../platform/schemas';
import type { RbsFake } from './rbsFake';
import type { RbsOrderRow } from './tables';

const statusText = (order: RbsOrderRow) =>
  order.order_status === ORDER_STATUS.deposited
    ? 'Оплачено. Вернитесь на страницу магазина: она уже знает о платеже.'
    : order.order_status === ORDER_STATUS.refunded
      ? 'Платеж возвращен.'
      : 'Платеж отклонен.';

/**
 * The fast-payment bank app: the QR's payload (from the RBS fake's get.do) opens this page, whose 'Оплатить'
 * and 'Отклонить' change the fake's order; the checkout learns the outcome through the protocol (callback, status).
 */
export const sbpSandbox: FastifyPluginAsyncJsonSchemaToTs<{ Options: { fake: RbsFake } }> = async (app, { fake }) => {
  const params = { type: 'object', properties: { qrcId: orderIdSchema }, required: ['qrcId'] } as const;
  const appPage = (body: Html, code = 200) => ({ code, body: sandboxPage('Приложение банка: СБП', body) });
  const notFound = () => appPage(html`<h1>Платеж не найден</h1>`, 404);

  const page = (order: RbsOrderRow) =>
    order.order_status !== ORDER_STATUS.registered
      ? appPage(html`<h1>Приложение банка</h1><p role="status">${statusText(order)}</p>`)
      : appPage(html`<h1>Приложение банка</h1>
<p>Оплата по QR-коду СБП</p>
<p class="sandbox-amount">Сумма: <strong>${roublesText(order.amount)}</strong></p>
<form method="post" action="/sandbox/sbp/${order.qr_id ?? ''}" class="sandbox-form">
<button type="submit" name="outcome" value="pay">Оплатить</button>
<button type="submit" name="outcome" value="decline" class="secondary">Отклонить</button>
</form>`);

  app.get('/sandbox/sbp/:qrcId', { schema: { params } }, async (request, reply) => {
    const order = await fake.order({ qrId: request.params.qrcId });
    const out = order ? page(order) : notFound();
    return reply.code(out.code).type('text/html; charset=utf-8').send(out.body);
  });

  app.post(
    '/sandbox/sbp/:qrcId',
    {
      config: otherParty,
      schema: {
        params,
        body: { type: 'object', required: ['outcome'], additionalProperties: false, properties: { outcome: { type: 'string', enum: ['pay', 'decline'] } } },
      },
    },
    async (request, reply) => {
      const order = await fake.order({ qrId: request.params.qrcId });
      if (!order) {
        const out = notFound();
        return reply.code(out.code).type('text/html; charset=utf-8').send(out.body);
      }
      const decided = (await fake.decide(order.order_id, request.body.outcome === 'pay')) ?? order;
      return reply.type('text/html; charset=utf-8').send(page(decided).body);
    },
  );
};
