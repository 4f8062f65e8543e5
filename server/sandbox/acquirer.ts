import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { AppOptions } from '../config';
import { toRoubles } from '../money';
import { settle } from '../payments';
import { html, sandboxPage } from '../render';
import { orderIdSchema } from '../routes/schemas';
import type { AttemptRow } from '../store/store';

/** The sandbox's test cards (DESIGN §7): one pays, one is declined; any other number is refused by the form. */
export const TEST_CARDS = { pays: '4111111111111111', declined: '4000000000000002' } as const;

const money = (kopecks: number) => `${toRoubles(kopecks).toLocaleString('ru-RU', { minimumFractionDigits: 2 })} руб.`;

function cardForm(attempt: AttemptRow, error: string | null, values: { card?: string; expiry?: string; cvc?: string } = {}) {
  const describedBy = error ? html` aria-describedby="card-error" aria-invalid="true"` : null;
  return sandboxPage(
    'Оплата картой',
    html`<h1>Оплата картой</h1>
<p class="sandbox-amount">К оплате: <strong>${money(attempt.amount_kopecks)}</strong></p>
${attempt.email ? html`<p class="sandbox-hint">Чек будет отправлен на ${attempt.email}</p>\n` : null}<form method="post" action="/sandbox/acquirer/${attempt.order_id}" class="sandbox-form" novalidate>
${error ? html`<p class="sandbox-error" role="alert" id="card-error">${error}</p>` : null}
<label for="card">Номер карты</label>
<input id="card" name="card" inputmode="numeric" autocomplete="cc-number" required value="${values.card ?? ''}"${describedBy}>
<div class="sandbox-row">
<div><label for="expiry">Срок действия</label>
<input id="expiry" name="expiry" inputmode="numeric" autocomplete="cc-exp" placeholder="ММ/ГГ" required value="${values.expiry ?? ''}"></div>
<div><label for="cvc">CVC</label>
<input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required value="${values.cvc ?? ''}"></div>
</div>
<button type="submit">Оплатить</button>
</form>
<p class="sandbox-hint">Тестовые карты: 4111 1111 1111 1111 — оплата пройдет, 4000 0000 0000 0002 — банк откажет.</p>`,
  );
}

/**
 * The sandbox card acquirer: the form behind `info.formUrl`. Its decision is the acquirer's confirmation, and
 * it is the only way a card payment's status changes (DESIGN §6: never because the browser says so).
 */
export const acquirerSandbox: FastifyPluginAsyncJsonSchemaToTs<{ Options: { options: AppOptions } }> = async (app, { options }) => {
  const store = app.store;
  const params = { type: 'object', properties: { orderId: orderIdSchema }, required: ['orderId'] } as const;
  const resultUrl = (attempt: AttemptRow) =>
    `${options.publicUrl}/${attempt.status === 'success' ? 'success' : 'fail'}?orderId=${encodeURIComponent(attempt.order_id)}&billOid=${encodeURIComponent(attempt.bill_oid)}`;

  app.get('/sandbox/acquirer/:orderId', { schema: { params } }, async (request, reply) => {
    const attempt = await store.attemptByOrder(request.params.orderId);
    if (!attempt) return reply.code(404).type('text/html; charset=utf-8').send(sandboxPage('Заказ не найден', html`<h1>Заказ не найден</h1>`));
    if (attempt.status !== 'created') return reply.redirect(resultUrl(attempt), 303);
    return reply.type('text/html; charset=utf-8').send(cardForm(attempt, null));
  });

  app.post(
    '/sandbox/acquirer/:orderId',
    {
      schema: {
        params,
        body: {
          type: 'object',
          properties: { card: { type: 'string', maxLength: 40 }, expiry: { type: 'string', maxLength: 10 }, cvc: { type: 'string', maxLength: 10 } },
        },
      },
    },
    async (request, reply) => {
      const attempt = await store.attemptByOrder(request.params.orderId);
      if (!attempt) return reply.code(404).type('text/html; charset=utf-8').send(sandboxPage('Заказ не найден', html`<h1>Заказ не найден</h1>`));
      if (attempt.status !== 'created') return reply.redirect(resultUrl(attempt), 303);

      const card = (request.body.card ?? '').replace(/\D/g, '');
      const expiryOk = /^(0[1-9]|1[0-2])\s*\/?\s*\d{2}$/.test((request.body.expiry ?? '').trim());
      const cvcOk = /^\d{3}$/.test((request.body.cvc ?? '').trim());
      let error: string | null = null;
      if (card !== TEST_CARDS.pays && card !== TEST_CARDS.declined) error = 'Используйте тестовую карту песочницы';
      else if (!expiryOk) error = 'Укажите срок действия в виде ММ/ГГ';
      else if (!cvcOk) error = 'CVC — три цифры с обратной стороны карты';
      if (error) return reply.code(400).type('text/html; charset=utf-8').send(cardForm(attempt, error, request.body));

      const settled = await settle(store, attempt.order_id, card === TEST_CARDS.pays ? 'success' : 'declined');
      return reply.redirect(resultUrl(settled), 303);
    },
  );
};
