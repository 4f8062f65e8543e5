import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { billByOid } from '../billing/queries';
import { nullableOidSchema, phoneSchema } from '../platform/schemas';
import { accountById } from './accountQueries';
import type { CaptchaVerifier } from './captcha';
import { checkCode, sendCode } from './codes';
import { captchaSchema, purposeSchema, refusal, sensitiveLimit } from './schemas';
import { requireSession } from './sessions';
import type { SmsGateway } from './sms';

const custNoSchema = { type: ['string', 'null'], maxLength: 100 } as const;

const sendSchema = {
  body: {
    type: 'object',
    required: ['phone', 'purpose'],
    additionalProperties: false,
    properties: {
      phone: phoneSchema,
      purpose: purposeSchema,
      objectOID: nullableOidSchema,
      // The page's own belief that the captcha passed; the server checks `captcha` itself and ignores this.
      captchaVerified: { type: 'boolean' },
      custNo: custNoSchema,
      usePoints: { type: 'boolean' },
      captcha: captchaSchema,
    },
  },
} as const;

const checkSchema = {
  body: {
    type: 'object',
    required: ['code', 'phone', 'purpose'],
    additionalProperties: false,
    properties: {
      code: { type: 'string', pattern: '^[0-9]{4}$' },
      phone: phoneSchema,
      purpose: purposeSchema,
      custNo: custNoSchema,
      usePoints: { type: 'boolean' },
      captcha: captchaSchema,
    },
  },
} as const;

interface Deps {
  sms: SmsGateway;
  verifyCaptcha: CaptchaVerifier;
}

/** A 429 that says when to try again, in the body (the page counts down) and in Retry-After (for anything else). */
const tryLater = (reply: FastifyReply, error: string, secondsLeft: number) =>
  reply.code(429).header('retry-after', String(secondsLeft)).send(refusal(error, true, { secondsLeft }));

/** `/api/send-sms/` and `/api/check-code/`: the SMS code rules live in codes.ts. */
export const codeRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: Deps }> = async (app, { sms, verifyCaptcha }) => {
  const store = app.store;
  app.post('/api/send-sms/', { schema: sendSchema, config: sensitiveLimit(10) }, async (request, reply) => {
    const session = await requireSession(store, request);
    const body = request.body;
    let custNo: string | null = null;

    if (body.purpose === 'use-points') {
      // A points code goes only to the bill customer's phone (or the signed-in account's when the bill has none):
      // otherwise anyone holding the bill's link could confirm the customer's points from their own phone.
      if (!body.objectOID) return reply.code(400).send(refusal('Не указан счет', false));
      const bill = await billByOid(store, body.objectOID);
      if (!bill) return reply.code(404).send(refusal('Документ не найден', false));
      if (!bill.cust_no || !bill.points_enabled) return reply.code(400).send(refusal('Баллы недоступны для этого счета', false));
      if (body.custNo && body.custNo !== bill.cust_no) return reply.code(400).send(refusal('Номер клиента не совпадает со счетом', false));
      const account = session.account_id ? await accountById(store, session.account_id) : undefined;
      const ownerPhone = bill.client_phone ?? account?.phone;
      if (body.phone !== ownerPhone) return reply.code(400).send(refusal('Код можно отправить только на телефон клиента', false));
      custNo = bill.cust_no;
    }

    const captchaPassed = body.captcha ? await verifyCaptcha(body.captcha, request.ip) : false;
    const outcome = await sendCode(store, sms, { phone: body.phone, purpose: body.purpose, custNo, captchaPassed, sessionId: session.id, address: request.ip });
    switch (outcome.kind) {
      case 'sent':
        return {
          success: true,
          show_captcha: outcome.showCaptcha,
          json: { show_captcha: outcome.showCaptcha },
          secondsLeft: outcome.secondsLeft,
          data: { secondsLeft: outcome.secondsLeft },
        };
      case 'captcha':
        return reply.code(400).send(refusal('Подтвердите, что вы не робот', true));
      case 'too-early':
        return tryLater(reply, `Повторная отправка кода возможна через ${outcome.secondsLeft} с`, outcome.secondsLeft);
      case 'hourly-cap':
        return tryLater(reply, 'Слишком много СМС на этот номер, попробуйте позже', outcome.secondsLeft);
      case 'address-cap':
        return tryLater(reply, 'Слишком много СМС с вашего адреса, попробуйте позже', outcome.secondsLeft);
      case 'blocked':
        return tryLater(reply, 'Слишком много неверных кодов: отправка кодов на этот номер приостановлена на 24 часа', outcome.secondsLeft);
    }
  });

  app.post('/api/check-code/', { schema: checkSchema, config: sensitiveLimit(20) }, async (request, reply) => {
    const session = await requireSession(store, request);
    const body = request.body;
    const captchaPassed = body.captcha ? await verifyCaptcha(body.captcha, request.ip) : false;
    const outcome = await checkCode(store, { sessionId: session.id, phone: body.phone, purpose: body.purpose, code: body.code, captchaPassed });
    switch (outcome.kind) {
      case 'ok':
        return { success: true, data: { verified: true, phone: outcome.verification.phone, purpose: outcome.verification.purpose } };
      case 'wrong':
        return reply.code(400).send(refusal('Ошибка проверки кода', true));
      case 'captcha':
        return reply.code(400).send(refusal('Подтвердите, что вы не робот', true));
      case 'blocked':
        return tryLater(reply, 'Слишком много неверных кодов, попробуйте через 24 часа', outcome.secondsLeft);
    }
  });
};
