import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { html } from '../platform/render';
import { otherParty, sandboxPage } from './party';
import { verifyWebhook } from '../merchant/signature';

/**
 * The sandbox's webhook inbox: the merchant's end of the webhooks when no MERCHANT_WEBHOOK_URL is set. It
 * verifies each arriving signature as a merchant would (a Standard Webhooks check with the server's secret) and shows
 * what arrived: `GET /sandbox/webhooks` (a page) and `GET /sandbox/webhooks.json`. A bad signature is answered 401, so
 * the delivery is recorded as failed and retried.
 */
export const webhooksSandbox: FastifyPluginAsyncJsonSchemaToTs<{ Options: { secret: string } }> = async (app, { secret }) => {
  const store = app.store;
  // The signature covers the exact bytes sent: keep the body as it came (this plugin only).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.post('/sandbox/webhooks', { config: otherParty }, async (request, reply) => {
    const body = typeof request.body === 'string' ? request.body : '';
    const valid = verifyWebhook(secret, request.headers, body, Math.floor(store.now() / 1000));
    let type: string | null = null;
    try {
      const parsed = JSON.parse(body) as { type?: unknown };
      type = typeof parsed.type === 'string' ? parsed.type : null;
    } catch {
      // Not JSON: shown as it came.
    }
    const id = request.headers['webhook-id'];
    await store.db
      .insertInto('sandbox_webhooks')
      .values({ webhook_id: typeof id === 'string' ? id.slice(0, 200) : '', type, body: body.slice(0, 32_768), valid: valid ? 1 : 0, received_at: store.now() })
      .execute();
    return valid ? reply.code(204).send() : reply.code(401).send({ success: false, error: 'Неверная подпись вебхука' });
  });

  const recent = async () =>
    (await store.db.selectFrom('sandbox_webhooks').selectAll().orderBy('id', 'desc').limit(50).execute()).map((row) => ({
      id: row.webhook_id,
      type: row.type,
      valid: row.valid === 1,
      receivedAt: new Date(row.received_at).toISOString(),
      body: row.body,
    }));

  app.get('/sandbox/webhooks.json', async () => ({ webhooks: await recent() }));

  app.get('/sandbox/webhooks', async (_request, reply) => {
    const rows = await recent();
    const body = html`<h1>Входящие вебхуки</h1>
<p>Что сервер сообщил магазину (Standard Webhooks), новые сверху. Подпись каждого проверена секретом сервера.</p>
${
  rows.length === 0
    ? html`<p class="sandbox-hint">Пока ничего не пришло: оплатите счет, созданный через API магазина.</p>`
    : html`<ul class="sandbox-list">
${rows.map(
  (row) => html`<li><strong>${row.type ?? 'без типа'}</strong> · ${row.valid ? 'подпись верна' : 'подпись НЕВЕРНА'} · ${row.receivedAt} · ${row.id}
<pre class="sandbox-code">${row.body}</pre></li>
`,
)}</ul>`
}`;
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(sandboxPage('Входящие вебхуки', body));
  });
};
