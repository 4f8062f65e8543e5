import fs from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { ORDER_STATUS } from '../acquirer/rbs';
import { roublesText } from '../platform/money';
import { orderNumberOf } from '../payments/start';
import { html } from '../platform/render';
import { otherParty, sandboxPage } from './party';
import { orderIdSchema } from '../platform/schemas';
import type { RbsFake } from './rbsFake';

/**
 * The widget page is the one page meant to be framed: by the checkout of this origin, nobody else. Everything
 * else about it is as strict as the rest (no inline script; its script is sberpay-widget.js).
 */
export const WIDGET_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'self'",
  "object-src 'none'",
  "frame-ancestors 'self'",
  'report-uri /csp-report',
].join('; ');

/** The bank-app pay widget for environment `local`; its message protocol is documented in the script. */
export const sberpaySandbox: FastifyPluginAsyncJsonSchemaToTs<{ Options: { fake: RbsFake } }> = async (app, { fake }) => {
  const script = fs.readFileSync(path.join(__dirname, 'sberpay-widget.js'), 'utf8');

  app.get('/sandbox/sberpay/widget.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(script),
  );

  app.get(
    '/sandbox/sberpay/widget',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            orderId: orderIdSchema,
            platform: { type: 'string', maxLength: 20 },
            params: { type: 'string', maxLength: 8192 },
          },
        },
      },
    },
    async (request, reply) => {
      // The page names its own order id; the fake knows it as the orderNumber it was registered under.
      const order = request.query.orderId ? await fake.order({ orderNumber: orderNumberOf(request.query.orderId) }) : undefined;
      const amount = order ? html`<p class="sandbox-amount">К оплате: <strong>${roublesText(order.amount)}</strong></p>` : null;
      const self = `/sandbox/sberpay/widget?orderId=${encodeURIComponent(request.query.orderId ?? '')}`;
      const body = html`<h1>SberPay</h1>
<p id="widget-order"></p>
${amount}
<p id="widget-status" role="status" aria-live="polite"></p>
<div class="sandbox-form">
<button type="button" data-action="pay">Оплатить</button>
<button type="button" data-action="decline" class="secondary">Отклонить</button>
<button type="button" data-action="close" class="secondary">Закрыть</button>
<a href="${self}" data-action="open-link">Открыть приложение банка</a>
</div>`;
      return reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', WIDGET_CSP)
        .header('x-frame-options', 'SAMEORIGIN')
        .send(sandboxPage('SberPay', body, { scripts: ['/sandbox/sberpay/widget.js'] }));
    },
  );

  // The desktop-Safari helper tab (the path /access-cookie on the widget's host): opened so the bank's
  // cookies count as first-party; it has nothing to do but say so.
  app.get('/sandbox/sberpay/access-cookie', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(sandboxPage('SberPay', html`<h1>SberPay</h1><p>Доступ разрешен. Эту вкладку можно закрыть.</p>`)),
  );

  // The bank's confirmation, by the bankInvoiceId (the fake's orderId): it changes the fake's order; the product learns
  // the outcome through the protocol.
  app.post(
    '/sandbox/sberpay/:orderId/confirm',
    {
      config: otherParty,
      schema: {
        params: { type: 'object', required: ['orderId'], properties: { orderId: orderIdSchema } },
        body: { type: 'object', required: ['outcome'], additionalProperties: false, properties: { outcome: { type: 'string', enum: ['pay', 'decline'] } } },
      },
    },
    async (request, reply) => {
      if (!(await fake.order({ orderId: request.params.orderId }))) return reply.code(404).send({ success: false, error: 'Заказ не найден' });
      const decided = (await fake.decide(request.params.orderId, request.body.outcome === 'pay'))!;
      return { success: true, status: decided.order_status === ORDER_STATUS.deposited ? 'success' : 'declined' };
    },
  );
};
