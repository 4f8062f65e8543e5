import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { toRoubles } from '../money';
import { settle } from '../payments';
import { html, sandboxPage, type Html } from '../render';
import { orderIdSchema } from '../routes/schemas';
import type { AttemptRow } from '../store/store';

const money = (kopecks: number) => `${toRoubles(kopecks).toLocaleString('ru-RU', { minimumFractionDigits: 2 })} руб.`;

const statusText: Record<AttemptRow['status'], string> = {
  created: 'Ожидает оплаты',
  success: 'Оплачено. Вернитесь на страницу магазина: она уже знает о платеже.',
  declined: 'Платеж отклонен.',
};

/**
 * The fast-payment bank app (DESIGN §7): the QR's payload opens this page, whose 'Оплатить' and 'Отклонить'
 * are the bank's confirmation; the checkout learns the outcome only from the server (getResult polling).
 */
export const sbpSandbox: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const store = app.store;
  const params = { type: 'object', properties: { qrcId: orderIdSchema }, required: ['qrcId'] } as const;
  const appPage = (body: Html, code = 200) => ({ code, body: sandboxPage('Приложение банка: СБП', body) });
  const notFound = () => appPage(html`<h1>Платеж не найден</h1>`, 404);

  const page = (attempt: AttemptRow) =>
    attempt.status !== 'created'
      ? appPage(html`<h1>Приложение банка</h1><p role="status">${statusText[attempt.status]}</p>`)
      : appPage(html`<h1>Приложение банка</h1>
<p>Оплата по QR-коду СБП</p>
<p class="sandbox-amount">Сумма: <strong>${money(attempt.amount_kopecks)}</strong></p>
<form method="post" action="/sandbox/sbp/${attempt.order_id}" class="sandbox-form">
<button type="submit" name="outcome" value="pay">Оплатить</button>
<button type="submit" name="outcome" value="decline" class="secondary">Отклонить</button>
</form>`);

  app.get('/sandbox/sbp/:qrcId', { schema: { params } }, async (request, reply) => {
    const attempt = await store.attemptByOrder(request.params.qrcId);
    const out = attempt ? page(attempt) : notFound();
    return reply.code(out.code).type('text/html; charset=utf-8').send(out.body);
  });

  app.post(
    '/sandbox/sbp/:qrcId',
    {
      schema: {
        params,
        body: { type: 'object', required: ['outcome'], additionalProperties: false, properties: { outcome: { type: 'string', enum: ['pay', 'decline'] } } },
      },
    },
    async (request, reply) => {
      if (!(await store.attemptByOrder(request.params.qrcId))) {
        const out = notFound();
        return reply.code(out.code).type('text/html; charset=utf-8').send(out.body);
      }
      const settled = await settle(store, request.params.qrcId, request.body.outcome === 'pay' ? 'success' : 'declined');
      return reply.type('text/html; charset=utf-8').send(page(settled).body);
    },
  );
};
