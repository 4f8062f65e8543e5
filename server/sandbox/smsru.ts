import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SANDBOX_SMSRU } from '../config';
import { faultSwitches, otherParty } from './party';
import { FAKE_CHECK_LIFE_MS, fakeCheckStatus, prettyNumber, SMSRU_FAULTS, type SmsRuFake } from './smsruFake';
import { fakeText, insertFakeCheck, insertFakeText } from './smsruQueries';

type Params = Record<string, string | undefined>;
type Answer = Record<string, unknown>;

const PHONE = /^7\d{10}$/;
const BALANCE = 4122.56;
/** The delivery statuses the fake ends a text with: delivered, or (the 'delivery-fails' fault) not. */
const DELIVERED = { statusCode: 103, text: 'Сообщение доставлено' } as const;
const NOT_DELIVERED = { statusCode: 106, text: 'Не может быть доставлено: телефон абонента недоступен' } as const;
const CHECK_TEXTS: Record<number, string> = { 400: 'Ожидаем звонка', 401: 'Номер подтвержден', 402: 'Время ожидания звонка истекло' };

const error = (statusCode: number, statusText: string): Answer => ({ status: 'ERROR', status_code: statusCode, status_text: statusText });

/**
 * The sandbox's SMS provider: a fake of SMS.ru's HTTP API under /sandbox/smsru/ (sms/send, sms/status, callcheck/add,
 * callcheck/status; GET or form-encoded POST, `api_id`, JSON answers with `status` and `status_code`), its fault
 * switches and the account's callback URL. Its state is smsruFake.ts's.
 */
export const smsruFakeRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: { fake: SmsRuFake } }> = async (app, { fake }) => {
  const store = app.store;

  /**
   * One of the API's methods, by GET or POST: the key checked, then the faults of the phone it is about: HTTP 500 with
   * nothing done, or the answer held back past the client's time-out after the work is done (a provider slow but not
   * idle: the text may reach the phone all the same).
   */
  const method = (name: string, phoneOf: (p: Params) => Promise<string | null>, handle: (p: Params) => Promise<Answer>) => {
    const serve = async (request: FastifyRequest, reply: FastifyReply) => {
      fake.called(name);
      const source = (request.method === 'GET' ? request.query : request.body) ?? {};
      // Only single values count (a parameter given twice is not one the API knows).
      const p: Params = Object.fromEntries(Object.entries(source as Record<string, unknown>).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
      if (p.api_id !== SANDBOX_SMSRU.apiId) return error(200, 'Неправильный api_id');
      const about = (await phoneOf(p)) ?? '*';
      if (fake.hasFault('provider-500', about)) return reply.code(500).type('text/plain').send('Internal Server Error');
      const answer = await handle(p);
      if (fake.hasFault('provider-timeout', about)) await fake.hang();
      return answer;
    };
    app.get(`${SANDBOX_SMSRU.path}${name}`, serve);
    app.post(`${SANDBOX_SMSRU.path}${name}`, { config: otherParty }, serve);
  };

  const recipients = (p: Params) =>
    (p.to ?? '')
      .split(',')
      .map((phone) => phone.trim())
      .filter(Boolean);

  method('sms/send', async (p) => recipients(p)[0] ?? null, async (p) => {
    const phones = recipients(p);
    if (phones.length === 0) return error(202, 'Неправильно указан номер телефона получателя');
    if (!p.msg) return error(203, 'Нет текста сообщения');
    if (p.from && p.from.length > 11) return error(204, 'Имя отправителя не согласовано с администрацией');
    const sms: Answer = {};
    for (const phone of phones.slice(0, 100)) {
      if (!PHONE.test(phone)) sms[phone] = error(202, 'Неправильно указан номер телефона получателя');
      else if (fake.hasFault('send-refused', phone)) sms[phone] = error(207, 'На этот номер нельзя отправлять сообщения');
      else if (p.test === '1') sms[phone] = { status: 'OK', status_code: 100, sms_id: `test-${phone}` };
      else {
        const delivery = fake.hasFault('delivery-fails', phone) ? NOT_DELIVERED : DELIVERED;
        const smsId = await insertFakeText(store, { phone, text: p.msg, status_code: delivery.statusCode });
        fake.notify(phone, ['sms_status', smsId, String(delivery.statusCode)]);
        sms[phone] = { status: 'OK', status_code: 100, sms_id: smsId };
      }
    }
    return { status: 'OK', status_code: 100, sms, balance: BALANCE };
  });

  const textOf = async (p: Params) => (p.sms_id ? await fakeText(store, p.sms_id) : undefined);
  method('sms/status', async (p) => (await textOf(p))?.phone ?? null, async (p) => {
    const text = await textOf(p);
    const entry = text
      ? { status: 'OK', status_code: text.status_code, status_text: text.status_code === DELIVERED.statusCode ? DELIVERED.text : NOT_DELIVERED.text }
      : error(-1, 'Сообщение не найдено');
    return { status: 'OK', status_code: 100, sms: { [p.sms_id ?? '']: entry }, balance: BALANCE };
  });

  method('callcheck/add', async (p) => p.phone ?? null, async (p) => {
    const phone = p.phone ?? '';
    if (!PHONE.test(phone)) return error(202, 'Неправильно указан номер телефона');
    const callPhone = await fake.lineFor(phone);
    const checkId = await insertFakeCheck(store, { phone, call_phone: callPhone, expires_at: store.now() + FAKE_CHECK_LIFE_MS });
    const pretty = prettyNumber(callPhone);
    return {
      status: 'OK',
      status_code: 100,
      check_id: checkId,
      call_phone: callPhone,
      call_phone_pretty: pretty,
      call_phone_html: `<a href="callto:${callPhone}">${pretty}</a>`,
    };
  });

  const checkOf = async (p: Params) => (p.check_id ? await fakeCheckStatus(store, p.check_id) : undefined);
  method('callcheck/status', async (p) => (await checkOf(p))?.phone ?? null, async (p) => {
    const found = await checkOf(p);
    if (!found) return error(202, 'Неверный check_id');
    return { status: 'OK', status_code: 100, check_status: found.status, check_status_text: CHECK_TEXTS[found.status] ?? '' };
  });

  faultSwitches(app, '/sandbox/smsru/faults', SMSRU_FAULTS, { name: 'phone', pattern: '^7[0-9]{10}$' }, fake.setFault);

  // The account's callback URL, as set in the provider's cabinet; null: this server's own /api/smsru/callback.
  app.post(
    '/sandbox/smsru/settings',
    {
      config: otherParty,
      schema: {
        body: {
          type: 'object',
          required: ['callbackUrl'],
          additionalProperties: false,
          properties: { callbackUrl: { type: ['string', 'null'], pattern: '^https?://', maxLength: 500 } },
        },
      },
    },
    async (request) => {
      fake.setCallbackUrl(request.body.callbackUrl);
      return { success: true };
    },
  );

};
