import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { CaptchaVerifier } from './captcha';
import { openVerification, phoneEnteredForRestore } from './codes';
import type { AppOptions } from '../config';
import { generatePassword, hashPassword, verifyPassword } from './passwords';
import { renewSession, replaceSession, requireSession } from './sessions';
import type { SmsGateway } from './sms';
import type { AccountRow } from '../store/store';
import { captchaSchema, emptyBodySchema, isPlausibleEmail, personNameSchema, phoneSchema, refusal, sensitiveLimit } from '../platform/schemas';

interface Deps {
  options: AppOptions;
  sms: SmsGateway;
  verifyCaptcha: CaptchaVerifier;
}

/** The loyalty user as get-user answers it (SPEC §3). */
const userOut = (account: AccountRow) => ({
  email: account.email,
  name: `${account.name} ${account.surname}`.trim(),
  phone: account.phone,
  oid: account.oid,
  picture: account.picture,
});

const noBody = { schema: { body: emptyBodySchema } };
/** ky posts some calls with no body at all; treat that as the empty object the schema allows. */
const bodyOptional = async (request: FastifyRequest) => {
  request.body ??= {};
};

/**
 * Account calls of SPEC §7: check-email, get-user, registration, password restore, local logout, and the provider
 * host's login, logout, checkUser, freeCallLock and freeCall under /ajax/{product}/ (form-encoded).
 */
export const accountRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: Deps }> = async (app, { options, sms, verifyCaptcha }) => {
  const store = app.store;
  const secure = options.publicUrl.startsWith('https:');
  const now = options.now;
  // Unknown phones are checked against this, so a login takes as long whether or not the phone has an account.
  const decoyHash = await hashPassword(crypto.randomBytes(16).toString('hex'), options.passwordCost);

  /** A captcha is needed when the phone's guard demands one (after a failure or a burst). */
  const captchaMissing = async (phone: string, captcha: string | null | undefined, ip: string) =>
    (await store.guardOf(phone)).captcha_required === 1 && !(captcha && (await verifyCaptcha(captcha, ip)));

  app.post(
    '/ajax/check-email/',
    { schema: { body: { type: 'object', required: ['email'], additionalProperties: false, properties: { email: { type: 'string', maxLength: 254 } } } } },
    async (request) => {
      // The page checks too; this is the server's word (SPEC §5), the same rule as the receipt e-mail's.
      const valid = isPlausibleEmail(request.body.email.trim());
      return valid ? { success: true } : { success: false, error: 'Неверный email' };
    },
  );

  app.post(
    '/ajax/get-user',
    { schema: { body: { type: 'object', required: ['token'], additionalProperties: false, properties: { token: { type: 'string', minLength: 1, maxLength: 200 } } } } },
    async (request, reply) => {
      const session = await requireSession(store, request);
      const token = Buffer.from(request.body.token);
      const known = session.user_token ? Buffer.from(session.user_token) : null;
      const account = session.account_id ? await store.accountById(session.account_id) : undefined;
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
          // The provider's API spells the patronymic two ways (SPEC §3); either will do.
          anyOf: [{ required: ['patronymic'] }, { required: ['patronimyc'] }],
          properties: {
            surname: personNameSchema,
            name: personNameSchema,
            patronymic: personNameSchema,
            patronimyc: personNameSchema,
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
      if (await captchaMissing(body.phone, body.captcha, request.ip)) return reply.code(400).send(refusal('Подтвердите, что вы не робот', true));
      const verification = await openVerification(store, now, session.id, body.phone, 'register');
      if (!verification) return reply.code(400).send(refusal('Подтвердите телефон кодом из СМС', false));
      if (await store.accountByPhone(body.phone)) return reply.code(409).send(refusal('Этот телефон уже зарегистрирован, войдите или восстановите пароль', false));

      const password = generatePassword();
      const passwordHash = await hashPassword(password, options.passwordCost);
      const created = await store.transaction(async (tx) => {
        // Checked again inside the transaction: two registrations may have raced through the hashing above.
        if ((await tx.accountByPhone(body.phone)) || !(await tx.consumeVerification(verification.id))) return false;
        await tx.insertAccount({
          oid: `user-${crypto.randomUUID()}`,
          phone: body.phone,
          surname: body.surname.trim(),
          name: body.name.trim(),
          patronymic: (body.patronymic ?? body.patronimyc ?? '').trim(),
          email: null,
          picture: null,
          password_hash: passwordHash,
        });
        await sms.send(tx, body.phone, `Вы зарегистрированы. Ваш пароль: ${password}`);
        return true;
      });
      if (!created) return reply.code(409).send(refusal('Этот телефон уже зарегистрирован, войдите или восстановите пароль', false));
      return { success: true, json: { show_captcha: false } };
    },
  );

  // Password restore. The answer is the same whether or not the phone has an account (no enumeration); the
  // phone must first be proven by a forgot-password code in this session, so nobody resets another's password.
  app.post(
    '/ajax/sendSMS/',
    {
      config: sensitiveLimit(5),
      schema: { body: { type: 'object', required: ['login'], additionalProperties: false, properties: { login: phoneSchema, captcha: captchaSchema } } },
    },
    async (request, reply) => {
      const session = await requireSession(store, request);
      const phone = request.body.login;
      if (await captchaMissing(phone, request.body.captcha, request.ip)) return reply.code(400).send(refusal('Подтвердите, что вы не робот', true));
      const verification = await openVerification(store, now, session.id, phone, 'forgot-password');
      if (!verification) return reply.code(400).send(refusal('Подтвердите телефон кодом из СМС', false));

      const password = generatePassword();
      const passwordHash = await hashPassword(password, options.passwordCost);
      await store.transaction(async (tx) => {
        if (!(await tx.consumeVerification(verification.id))) return;
        const account = await tx.accountByPhone(phone);
        if (!account) return;
        await tx.setPassword(account.id, passwordHash);
        await sms.send(tx, phone, `Ваш новый пароль: ${password}`);
      });
      return { success: true, data: 'Если номер зарегистрирован, новый пароль отправлен по СМС', json: { show_captcha: false } };
    },
  );

  // Both logouts (the page calls the local one, then the provider's): the session ends with all it had proven.
  const logout = async (request: FastifyRequest, reply: FastifyReply) => {
    await replaceSession(store, await requireSession(store, request), reply, secure);
    return { success: true };
  };
  app.post('/ajax/logout', { schema: { body: emptyBodySchema }, preValidation: bodyOptional }, logout);

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
      // One answer for an unknown phone and a wrong password, in about the same time: no account enumeration.
      const failed = async () => {
        await store.setCaptchaRequired(phone, true);
        return reply.code(401).send(refusal('Неверный телефон или пароль', true));
      };
      if (await captchaMissing(phone, captcha, request.ip)) return reply.code(400).send(refusal('Подтвердите, что вы не робот', true));
      const account = await store.accountByPhone(phone);
      const matches = await verifyPassword(password, account?.password_hash ?? decoyHash);
      if (!account || !matches) return await failed();
      await store.setCaptchaRequired(phone, false);
      await renewSession(store, session, account.id, reply, secure);
      return { success: true };
    },
  );

  app.post(`${provider}/logout/`, { ...noBody, preValidation: bodyOptional }, logout);

  app.post(`${provider}/checkUser/`, { ...noBody, preValidation: bodyOptional }, async (request) => {
    const session = await requireSession(store, request);
    if (!session.account_id) return { success: false, json: { token: null } };
    let token = session.user_token;
    if (!token) {
      token = crypto.randomBytes(24).toString('base64url');
      await store.setUserToken(session.id, token);
    }
    return { success: true, json: { token } };
  });

  const phoneForm = { body: { type: 'object', required: ['phone'], additionalProperties: false, properties: { phone: phoneSchema } } } as const;

  // The payer calls the free-call line from this phone; the lock says this session is waiting for that call. A call
  // signs in exactly one session, so: a session may lock only a phone it entered in this flow (a restore code was
  // sent to it); a phone has at most one waiting lock, the newest, and a replaced one simply never hears of the call.
  app.post(`${provider}/freeCallLock/`, { schema: phoneForm, config: sensitiveLimit(10) }, async (request) => {
    const session = await requireSession(store, request);
    const { phone } = request.body;
    if (!(await phoneEnteredForRestore(store, now, session.id, phone))) return { success: true, json: { result: false } };
    await store.transaction(async (tx) => {
      await tx.endWaitingFreeCalls(phone);
      await tx.insertFreeCall(session.id, phone, now() + FREE_CALL_WINDOW_MS);
    });
    return { success: true, json: { result: true } };
  });

  // Polled every 5 s: true once the call came in to this session's own lock. A call from the phone proves it, so its
  // account is signed in (SPEC §4: the page then reloads and finds the user through checkUser).
  app.post(`${provider}/freeCall/`, { schema: phoneForm }, async (request, reply) => {
    const session = await requireSession(store, request);
    const lock = await store.latestFreeCall(session.id, request.body.phone);
    const called = lock?.called_at != null;
    if (called) {
      const account = await store.accountByPhone(request.body.phone);
      if (account && session.account_id !== account.id) await renewSession(store, session, account.id, reply, secure);
    }
    return { success: true, json: { result: called } };
  });
};

/** A free-call lock waits this long for the call (the page polls for 60 s; a little slack for the line). */
export const FREE_CALL_WINDOW_MS = 2 * 60_000;
