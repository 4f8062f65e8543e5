import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { stepMessages } from '../../src/services/stepMessages';
import { nullableOidSchema, phoneSchema } from '../platform/schemas';
import type { CaptchaVerifier } from './captcha';
import { checkCode, codeTarget, sendCode } from './codes';
import { TEXT_LINE } from '../../src/services/rules/freeText';
import { captchaSchema, purposeSchema, refusal, sensitiveLimit, textNotSent } from './schemas';
import { requireSession } from './sessions';
import type { TextOutbox } from './texts';

const custNoSchema = { type: ['string', 'null'], maxLength: 100, format: TEXT_LINE } as const;
/** The phone a code goes to, for the codes whose phone the payer types; a points code's phone is the bill's own. */
const typedPhoneSchema = { anyOf: [phoneSchema, { type: 'null' }] } as const;

const sendSchema = {
  body: {
    type: 'object',
    required: ['purpose'],
    additionalProperties: false,
    properties: {
      phone: typedPhoneSchema,
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
    required: ['code', 'purpose'],
    additionalProperties: false,
    properties: {
      code: { type: 'string', pattern: '^[0-9]{4}$', fieldMessage: stepMessages.code.incomplete },
      phone: typedPhoneSchema,
      purpose: purposeSchema,
      objectOID: nullableOidSchema,
      custNo: custNoSchema,
      usePoints: { type: 'boolean' },
      captcha: captchaSchema,
    },
  },
} as const;

interface Deps {
  texts: TextOutbox;
  verifyCaptcha: CaptchaVerifier;
}

/** A 429 that says when to try again, in the body (the page counts down) and in Retry-After (for anything else). */
const tryLater = (reply: FastifyReply, error: string, secondsLeft: number) =>
  reply.code(429).header('retry-after', String(secondsLeft)).send(refusal(error, true, { secondsLeft }));

/** `/api/send-sms/` and `/api/check-code/`: the SMS code rules live in codes.ts. */
export const codeRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: Deps }> = async (app, { texts, verifyCaptcha }) => {
  const store = app.store;

  /** A code call's session, where its code goes and whether its captcha passed; null once its refusal is sent. */
  async function codeCall(request: FastifyRequest, reply: FastifyReply, body: Parameters<typeof codeTarget>[2] & { captcha?: string | null }) {
    const session = await requireSession(store, request);
    const target = await codeTarget(store, session, body);
    if ('refused' in target) {
      await reply.code(target.refused.status).send(refusal(target.refused.error, false));
      return null;
    }
    const captchaPassed = body.captcha ? await verifyCaptcha(body.captcha, request.ip) : false;
    return { session, target, captchaPassed };
  }

  app.post('/api/send-sms/', { schema: sendSchema, config: sensitiveLimit(10) }, async (request, reply) => {
    const call = await codeCall(request, reply, request.body);
    if (!call) return reply;
    const { session, target, captchaPassed } = call;
    const outcome = await sendCode(store, texts, { ...target, purpose: request.body.purpose, captchaPassed, sessionId: session.id, address: request.ip });
    switch (outcome.kind) {
      case 'sent':
        return {
          success: true,
          show_captcha: outcome.showCaptcha,
          json: { show_captcha: outcome.showCaptcha },
          secondsLeft: outcome.secondsLeft,
          data: { secondsLeft: outcome.secondsLeft },
        };
      case 'not-sent':
        return textNotSent(reply, outcome.showCaptcha);
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
    const call = await codeCall(request, reply, request.body);
    if (!call) return reply;
    const { session, target, captchaPassed } = call;
    const { purpose, code } = request.body;
    const outcome = await checkCode(store, { sessionId: session.id, phone: target.phone, purpose, code, captchaPassed });
    switch (outcome.kind) {
      case 'ok':
        return { success: true, data: { verified: true, phone: outcome.verification.phone, purpose: outcome.verification.purpose } };
      case 'wrong':
        return reply.code(400).send(refusal('Ошибка проверки кода', outcome.showCaptcha, { triesLeft: outcome.triesLeft }));
      case 'captcha':
        return reply.code(400).send(refusal('Подтвердите, что вы не робот', true));
      case 'blocked':
        return tryLater(reply, 'Слишком много неверных кодов, попробуйте через 24 часа', outcome.secondsLeft);
    }
  });
};
