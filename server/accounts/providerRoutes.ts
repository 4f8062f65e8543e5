import crypto from 'node:crypto';
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { AppOptions } from '../config';
import { phoneSchema } from '../platform/schemas';
import { accountByPhone } from './accountQueries';
import { captchaMissing, type CaptchaVerifier } from './captcha';
import { setCaptchaRequired } from './codeQueries';
import { callCameIn, lockFreeCall } from './freeCalls';
import { hashPassword, verifyPassword } from './passwords';
import { bodyOptional, logout } from './routes';
import { captchaSchema, emptyBodySchema, refusal, sensitiveLimit } from './schemas';
import { setUserToken } from './sessionQueries';
import { renewSession, requireSession } from './sessions';

const noBody = { schema: { body: emptyBodySchema } };

/**
 * The provider host's account calls under /ajax/{product}/ (form-encoded): login, logout, checkUser, and the free
 * call's lock and poll.
 */
export const providerRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: { options: AppOptions; verifyCaptcha: CaptchaVerifier } }> = async (
  app,
  { options, verifyCaptcha },
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
          properties: { login: { type: 'string', maxLength: 20 }, phone: phoneSchema, password: { type: 'string', minLength: 1, maxLength: 200 }, captcha: captchaSchema },
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

  // The payer calls the free-call line from this phone; the lock says this session is waiting for that call (freeCalls.ts).
  app.post(`${provider}/freeCallLock/`, { schema: phoneForm, config: sensitiveLimit(10) }, async (request) => {
    const session = await requireSession(store, request);
    return { success: true, json: { result: await lockFreeCall(store, session.id, request.body.phone) } };
  });

  // Polled every 5 s: true once the call came in to this session's own lock. A call from the phone proves it, so its
  // account is signed in (the page then reloads and finds the user through checkUser).
  app.post(`${provider}/freeCall/`, { schema: phoneForm }, async (request, reply) => {
    const session = await requireSession(store, request);
    const called = await callCameIn(store, session.id, request.body.phone);
    if (called) {
      const account = await accountByPhone(store, request.body.phone);
      if (account && session.account_id !== account.id) await renewSession(store, session, account.id, reply, secure);
    }
    return { success: true, json: { result: called } };
  });
};
