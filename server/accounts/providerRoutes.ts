import crypto from 'node:crypto';
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { AppOptions } from '../config';
import { phoneSchema } from '../platform/schemas';
import { accountByPhone } from './accountQueries';
import { captchaMissing, type CaptchaVerifier } from './captcha';
import { setCaptchaRequired } from './codeQueries';
import type { FreeCalls } from './freeCalls';
import { hashPassword, verifyPassword } from './passwords';
import { bodyOptional, logout } from './routes';
import { TEXT_LINE } from '../../src/services/rules/freeText';
import { captchaSchema, emptyBodySchema, passwordSchema, refusal, sensitiveLimit } from './schemas';
import { setUserToken } from './sessionQueries';
import { renewSession, requireSession } from './sessions';

const noBody = { schema: { body: emptyBodySchema } };

/**
 * The provider host's account calls under /ajax/{product}/ (form-encoded): login, logout, checkUser, and the free
 * call's lock and poll.
 */
export const providerRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: { options: AppOptions; verifyCaptcha: CaptchaVerifier; calls: FreeCalls } }> = async (
  app,
  { options, verifyCaptcha, calls },
) => {
  const store = app.store;
  const secure = options.publicUrl.startsWith('https:');
  // Unknown phones are checked against this, so a login takes as long whether or not the phone has an account.
  const decoyHash = await hashPassword(crypto.randomBytes(16).toString('hex'), options.passwordCost);
  const provider = `/ajax/${options.product}`;

  app.post(
    `${provider}/login/`,
    {
      config: sensitiveLimit(10),
      schema: {
        body: {
          type: 'object',
          required: ['phone', 'password'],
          additionalProperties: false,
          properties: { login: { type: 'string', maxLength: 20, format: TEXT_LINE }, phone: phoneSchema, password: passwordSchema, captcha: captchaSchema },
        },
      },
    },
    async (request, reply) => {
      const session = await requireSession(store, request);
      const { phone, password, captcha } = request.body;
      if (await captchaMissing(store, verifyCaptcha, phone, captcha, request.ip)) return reply.code(400).send(refusal('Подтвердите, что вы не робот', true));
      const account = await accountByPhone(store, phone);
      const matches = await verifyPassword(password, account?.password_hash ?? decoyHash);
      // One answer for an unknown phone and a wrong password, in about the same time: no account enumeration.
      if (!account || !matches) {
        await setCaptchaRequired(store, phone, true);
        return reply.code(401).send(refusal('Неверный телефон или пароль', true));
      }
      await setCaptchaRequired(store, phone, false);
      await renewSession(store, session, account.id, reply, secure);
      return { success: true };
    },
  );

  app.post(`${provider}/logout/`, { ...noBody, preValidation: bodyOptional }, logout(options));

  app.post(`${provider}/checkUser/`, { ...noBody, preValidation: bodyOptional }, async (request) => {
    const session = await requireSession(store, request);
    if (!session.account_id) return { success: false, json: { token: null } };
    let token = session.user_token;
    if (!token) {
      token = crypto.randomBytes(24).toString('base64url');
      await setUserToken(store, session.id, token);
    }
    return { success: true, json: { token } };
  });

  const phoneForm = { body: { type: 'object', required: ['phone'], additionalProperties: false, properties: { phone: phoneSchema } } } as const;

  // The payer chose the free call: a call check for this phone starts at the provider, whose number the page shows.
  app.post(`${provider}/freeCallLock/`, { schema: phoneForm, config: sensitiveLimit(10) }, async (request, reply) => {
    const session = await requireSession(store, request);
    try {
      const number = await calls.start(session.id, request.body.phone);
      if (!number) return { success: true, json: { result: false } };
      return { success: true, json: { result: true, call_phone: number.callPhone, call_phone_pretty: number.callPhonePretty } };
    } catch (error) {
      request.log.warn({ err: error }, 'free call check not started');
      return reply.code(503).send({ success: false, error: 'Не удалось начать проверку звонком. Попробуйте позже', json: { result: false } });
    }
  });

  // Polled every 5 s: true once the provider confirmed this session's own check. A call from the phone proves it, so
  // its account is signed in (the page then reloads and finds the user through checkUser). `state` tells the page
  // when to stop: the check is over, or the call could have been another session's (start again).
  app.post(`${provider}/freeCall/`, { schema: phoneForm }, async (request, reply) => {
    const session = await requireSession(store, request);
    const { status, check } = await calls.status(session.id, request.body.phone);
    if (status === 'confirmed' && check) {
      const account = await accountByPhone(store, request.body.phone);
      if (account && session.account_id !== account.id) await renewSession(store, session, account.id, reply, secure);
      await calls.signedIn(check);
    }
    return { success: true, json: { result: status === 'confirmed', state: status } };
  });
};