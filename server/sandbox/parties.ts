import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { DEV_CAPTCHA_TOKEN } from '../captcha';
import { phoneSchema } from '../routes/schemas';

/**
 * The sandbox's SMS line, captcha and free-call line (DESIGN §7): what a tester or a browser test needs to read
 * the codes and passwords "sent" to a phone, pass the captcha and make the call from the payer's phone.
 */
export const partiesSandbox: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const store = app.store;
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
      const messages = (await store.outboxOf(request.query.phone, limit)).map((message) => ({
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

  app.post(
    '/sandbox/free-call',
    { schema: { body: { type: 'object', required: ['phone'], additionalProperties: false, properties: { phone: phoneSchema } } } },
    async (request) => ({ success: true, answered: await store.recordCall(request.body.phone) }),
  );
};
