import fs from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { DEV_CAPTCHA_TOKEN } from '../accounts/captcha';
import { recordCall } from '../accounts/freeCalls';
import { ensureSession } from '../accounts/sessions';
import type { AppOptions } from '../config';
import { html } from '../platform/render';
import { sandboxPage } from './party';
import { phoneSchema } from '../platform/schemas';
import { outboxOf } from './smsOutbox';

/**
 * The sandbox's SMS line, captcha and free-call line: what a tester or a browser test needs to read
 * the codes and passwords "sent" to a phone, pass the captcha and make the call from the payer's phone.
 */
export const partiesSandbox: FastifyPluginAsyncJsonSchemaToTs<{ Options: { options: AppOptions } }> = async (app, { options }) => {
  const store = app.store;
  const freeCallScript = fs.readFileSync(path.join(__dirname, 'free-call.js'), 'utf8');

  app.get(
    '/sandbox/sms',
    {
      schema: {
        querystring: {
          type: 'object',
          required: ['phone'],
          additionalProperties: false,
          properties: { phone: phoneSchema, limit: { type: 'string', pattern: '^[0-9]{1,3}$' } },
        },
      },
    },
    async (request) => {
      const limit = Math.min(100, Math.max(1, Number(request.query.limit ?? 20)));
      const messages = (await outboxOf(store, request.query.phone, limit)).map((message) => ({
        id: message.id,
        text: message.text,
        // Convenience for tests and testers: the code or password the message carries.
        code: /Код подтверждения: (\d{4})/.exec(message.text)?.[1] ?? null,
        password: /пароль: (\S+)$/.exec(message.text)?.[1] ?? null,
        sentAt: new Date(message.created_at).toISOString(),
      }));
      return { phone: request.query.phone, messages };
    },
  );

  // The stand-in captcha has nothing to show; this tells a tester which token it sends.
  app.get('/sandbox/captcha', async () => ({ token: DEV_CAPTCHA_TOKEN }));

  // The free-call line: the page lets a tester make the call; its POST (or a test's) carries a session's CSRF token.
  app.get('/sandbox/free-call', async (request, reply) => {
    const session = await ensureSession(store, request, reply, options.publicUrl.startsWith('https:'));
    const body = html`<h1>Бесплатная линия</h1>
<p>Звонок с телефона плательщика подтверждает его номер: страница, которая ждет этого звонка, войдет в кабинет.</p>
<form id="free-call-form" class="sandbox-form" novalidate>
<label for="phone">Телефон, с которого звонят</label>
<input id="phone" name="phone" inputmode="numeric" autocomplete="tel" placeholder="79990000002" required>
<button type="submit">Позвонить</button>
</form>
<p id="free-call-status" class="sandbox-hint" role="status" aria-live="polite"></p>`;
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(sandboxPage('Бесплатная линия', body, { scripts: ['/sandbox/free-call.js'], csrfToken: session.csrf_token }));
  });
  app.get('/sandbox/free-call.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(freeCallScript),
  );

  app.post(
    '/sandbox/free-call',
    { schema: { body: { type: 'object', required: ['phone'], additionalProperties: false, properties: { phone: phoneSchema } } } },
    async (request) => ({ success: true, answered: await recordCall(store, request.body.phone) }),
  );
};
