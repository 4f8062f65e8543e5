import fs from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { DEV_CAPTCHA_TOKEN } from '../accounts/captcha';
import { html } from '../platform/render';
import { phoneSchema } from '../platform/schemas';
import { otherParty, sandboxPage } from './party';
import type { SmsRuFake } from './smsruFake';
import { fakeTextsOf } from './smsruQueries';

/**
 * The phone's side of the sandbox's SMS provider, and its captcha: what a tester or a browser test needs to read the
 * codes and passwords the provider delivered to a phone, pass the captcha and make the free call from the payer's phone.
 */
export const partiesSandbox: FastifyPluginAsyncJsonSchemaToTs<{ Options: { fake: SmsRuFake } }> = async (app, { fake }) => {
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
      const messages = (await fakeTextsOf(store, request.query.phone, limit)).map((message) => ({
        id: message.id,
        smsId: message.sms_id,
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

  // The phone calls the provider's number: the page lets a tester make the call, a test posts it. It stands for the phone
  // network, no browser of ours, and signs nobody in by itself: the product reads the provider's check.
  app.get('/sandbox/free-call', async (_request, reply) => {
    const body = html`<h1>Бесплатная линия</h1>
<p>Звонок с телефона плательщика на номер, который показала страница, подтверждает его номер: страница, которая ждет этого звонка, войдет в кабинет.</p>
<form id="free-call-form" class="sandbox-form" novalidate>
<label for="phone">Телефон, с которого звонят</label>
<input id="phone" name="phone" inputmode="numeric" autocomplete="tel" placeholder="79990000002" required>
<label for="to">Номер, на который звонят</label>
<input id="to" name="to" inputmode="numeric" placeholder="78005008275" aria-describedby="to-hint">
<p id="to-hint" class="sandbox-hint">Пусто: номер последней проверки этого телефона</p>
<button type="submit">Позвонить</button>
</form>
<p id="free-call-status" class="sandbox-hint" role="status" aria-live="polite"></p>`;
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(sandboxPage('Бесплатная линия', body, { scripts: ['/sandbox/free-call.js'] }));
  });
  app.get('/sandbox/free-call.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(freeCallScript),
  );

  app.post(
    '/sandbox/free-call',
    {
      config: otherParty,
      schema: {
        body: {
          type: 'object',
          required: ['phone'],
          additionalProperties: false,
          properties: { phone: phoneSchema, to: { anyOf: [{ type: 'string', pattern: '^7[0-9]{10}$' }, { type: 'null' }] } },
        },
      },
    },
    async (request) => ({ success: true, answered: await fake.placeCall(request.body.phone, request.body.to ?? null) }),
  );
};
