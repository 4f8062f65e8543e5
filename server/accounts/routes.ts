import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { AppOptions } from '../config';
import { isPlausibleEmail } from '../platform/patterns';
import { fieldWords, phoneSchema } from '../platform/schemas';
import { accountById } from './accountQueries';
import { userOut } from './loyaltyUser';
import { register, type AccountDeps } from './registration';
import { restorePassword } from './restore';
import { TEXT_LINE } from '../../src/services/rules/freeText';
import { captchaSchema, emailSchema, emptyBodySchema, givenNameSchema, patronymicSchema, refusal, sensitiveLimit, surnameSchema, textNotSent } from './schemas';
import { replaceSession, requireSession } from './sessions';

/** ky posts some calls with no body at all; treat that as the empty object the schema allows. */
export const bodyOptional = async (request: FastifyRequest) => {
  request.body ??= {};
};

/** The refusals both password flows (registration, restore) answer alike: the text did not go out, the captcha, no proof. */
const passwordFlowRefused = (reply: FastifyReply, outcome: 'not-sent' | 'captcha' | 'unproven') =>
  outcome === 'not-sent'
    ? textNotSent(reply, false)
    : reply.code(400).send(outcome === 'captcha' ? refusal('Подтвердите, что вы не робот', true) : refusal('Подтвердите телефон кодом из СМС', false));

/** Both logouts (the page calls the local one, then the provider's): the session ends with all it had proven. */
export const logout = (options: AppOptions) => async (request: FastifyRequest, reply: FastifyReply) => {
  await replaceSession(request.server.store, await requireSession(request.server.store, request), reply, options.publicUrl.startsWith('https:'));
  return { success: true };
};

/** The page's own account calls: check-email, get-user, registration, password restore and the local logout. */
export const accountRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: AccountDeps & { options: AppOptions } }> = async (app, { options, ...deps }) => {
  const store = app.store;

  app.post(
    '/ajax/check-email/',
    { schema: { body: { type: 'object', required: ['email'], additionalProperties: false, properties: { email: emailSchema } } } },
    async (request) => {
      // The page checks too; this is the server's word, the same rule as the receipt e-mail's.
      const valid = isPlausibleEmail(request.body.email.trim());
      return valid ? { success: true } : { success: false, error: 'Неверный email' };
    },
  );

  app.post(
    '/ajax/get-user',
    { schema: { body: { type: 'object', required: ['token'], additionalProperties: false, properties: { token: { type: 'string', minLength: 1, maxLength: 200, format: TEXT_LINE } } } } },
    async (request, reply) => {
      const session = await requireSession(store, request);
      const token = Buffer.from(request.body.token);
      const known = session.user_token ? Buffer.from(session.user_token) : null;
      const account = session.account_id ? await accountById(store, session.account_id) : undefined;
      if (!account || !known || known.length !== token.length || !crypto.timingSafeEqual(known, token)) {
        return reply.code(401).send({ success: false, error: 'Пользователь не найден' });
      }
      return { success: true, user: userOut(account) };
    },
  );

  app.post(
    '/ajax/registration/',
    {
      config: sensitiveLimit(5),
      schema: {
        body: {
          type: 'object',
          required: ['surname', 'name', 'phone', 'privacy'],
          additionalProperties: false,
          // The provider's API spells the patronymic two ways; either will do.
          anyOf: [
            { required: ['patronymic'], fieldMessage: fieldWords.patronymicRequired },
            { required: ['patronimyc'], fieldMessage: fieldWords.patronymicRequired },
          ],
          properties: {
            surname: surnameSchema,
            name: givenNameSchema,
            patronymic: patronymicSchema,
            patronimyc: patronymicSchema,
            phone: phoneSchema,
            privacy: { type: 'boolean' },
            personalDataAgreement: { type: 'boolean' },
            captcha: captchaSchema,
          },
        },
      },
    },
    async (request, reply) => {
      const session = await requireSession(store, request);
      const body = request.body;
      if (!body.privacy || body.personalDataAgreement === false) {
        return reply.code(400).send(refusal('Подтвердите соглашение на обработку личных данных', false));
      }
      const outcome = await register(store, deps, {
        sessionId: session.id,
        phone: body.phone,
        surname: body.surname,
        name: body.name,
        patronymic: body.patronymic ?? body.patronimyc ?? '',
        captcha: body.captcha,
        address: request.ip,
      });
      switch (outcome) {
        case 'registered':
          return { success: true, json: { show_captcha: false } };
        case 'taken':
          return reply.code(409).send(refusal('Этот телефон уже зарегистрирован, войдите или восстановите пароль', false));
        default:
          return passwordFlowRefused(reply, outcome);
      }
    },
  );

  // Password restore: the same answer whether or not the phone has an account (restore.ts).
  app.post(
    '/ajax/sendSMS/',
    {
      config: sensitiveLimit(5),
      schema: { body: { type: 'object', required: ['login'], additionalProperties: false, properties: { login: phoneSchema, captcha: captchaSchema } } },
    },
    async (request, reply) => {
      const session = await requireSession(store, request);
      const outcome = await restorePassword(store, deps, { sessionId: session.id, phone: request.body.login, captcha: request.body.captcha, address: request.ip });
      if (outcome === 'done') return { success: true, data: 'Если номер зарегистрирован, новый пароль отправлен по СМС', json: { show_captcha: false } };
      return passwordFlowRefused(reply, outcome);
    },
  );

  app.post('/ajax/logout', { schema: { body: emptyBodySchema }, preValidation: bodyOptional }, logout(options));
};
