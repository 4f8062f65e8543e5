import type { FastifyInstance } from 'fastify';
import { SANDBOX_SMSRU } from '../../../server/config';
import { FAKE_LINES } from '../../../server/sandbox/smsruFake';
import { injectFetch } from '../../support/injectFetch';
import { smsFault, startServer, textsTo, type TestServer } from '../helpers';

/** The sandbox's SMS.ru fake as any client sees it: the four calls with the API's fields, its switches and its callbacks. */

let server: TestServer;
/** The callbacks the fake posted, wherever they went. */
let posted: { url: string; body: string }[];
const box: { app?: FastifyInstance } = {};
beforeEach(async () => {
  posted = [];
  server = await startServer({
    smsruFetch: async (input, init) => {
      if (!String(input).includes(SANDBOX_SMSRU.path)) posted.push({ url: String(input), body: String(init?.body ?? '') });
      return injectFetch(() => box.app!)(input, init);
    },
  });
  box.app = server.app;
});
afterEach(() => server.close());

const PHONE = '79995554422';
const api = (method: string, params: Record<string, string>, how: 'GET' | 'POST' = 'POST') => {
  const query = new URLSearchParams({ api_id: SANDBOX_SMSRU.apiId, json: '1', ...params }).toString();
  return how === 'GET'
    ? server.app.inject({ method: 'GET', url: `${SANDBOX_SMSRU.path}${method}?${query}` })
    : server.app.inject({ method: 'POST', url: `${SANDBOX_SMSRU.path}${method}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: query });
};
/** The records of the callbacks posted so far, as their `data[]` lines. */
const callbackRecords = () => posted.map((callback) => new URLSearchParams(callback.body).getAll('data[]').map((record) => record.split('\n').slice(0, 3)));

test('sms/send answers the per-phone status with the sms_id, and the phone gets the text; sms/status reads it', async () => {
  const sent = (await api('sms/send', { to: `${PHONE},79995554433,123`, msg: 'Код подтверждения: 1111' })).json();
  expect(sent).toEqual({
    status: 'OK',
    status_code: 100,
    sms: {
      [PHONE]: { status: 'OK', status_code: 100, sms_id: expect.stringMatching(/^\d{6}-\d{8}$/) },
      '79995554433': { status: 'OK', status_code: 100, sms_id: expect.stringMatching(/^\d{6}-\d{8}$/) },
      '123': { status: 'ERROR', status_code: 202, status_text: 'Неправильно указан номер телефона получателя' },
    },
    balance: expect.any(Number),
  });
  const smsId = sent.sms[PHONE].sms_id as string;
  expect((await textsTo(server.app, PHONE)).map((text) => text.text)).toEqual(['Код подтверждения: 1111']);
  for (const how of ['GET', 'POST'] as const) {
    expect((await api('sms/status', { sms_id: smsId }, how)).json()).toEqual({
      status: 'OK',
      status_code: 100,
      sms: { [smsId]: { status: 'OK', status_code: 103, status_text: 'Сообщение доставлено' } },
      balance: expect.any(Number),
    });
  }
  // test=1: taken, not sent.
  expect((await api('sms/send', { to: PHONE, msg: 'проба', test: '1' })).json().sms[PHONE]).toMatchObject({ status: 'OK', status_code: 100 });
  expect(await textsTo(server.app, PHONE)).toHaveLength(1);
});

test('the delivery is told by a callback to the account\'s URL (this server\'s unless set), unless the callback is lost', async () => {
  const { sms } = (await api('sms/send', { to: PHONE, msg: 'раз' })).json();
  await server.app.background.idle();
  expect(posted.map((callback) => new URL(callback.url).pathname)).toEqual(['/api/smsru/callback']);
  expect(callbackRecords()).toEqual([[['sms_status', sms[PHONE].sms_id, '103']]]);

  const settings = await server.app.inject({ method: 'POST', url: '/sandbox/smsru/settings', payload: { callbackUrl: 'http://merchant.example/sms' } });
  expect(settings.statusCode).toBe(200);
  await smsFault(server.app, 'delivery-fails', true, PHONE);
  await api('sms/send', { to: PHONE, msg: 'два' });
  await server.app.background.idle();
  expect(posted.at(-1)!.url).toBe('http://merchant.example/sms');
  expect(callbackRecords().at(-1)![0]!.slice(2)).toEqual(['106']);

  await smsFault(server.app, 'callback-lost');
  await api('sms/send', { to: PHONE, msg: 'три' });
  await server.app.background.idle();
  expect(posted).toHaveLength(2);
});

test('the outer errors: a wrong api_id, no text, a sender name not approved', async () => {
  expect((await api('sms/send', { to: PHONE, msg: 'x', api_id: 'nope' })).json()).toEqual({ status: 'ERROR', status_code: 200, status_text: 'Неправильный api_id' });
  expect((await api('sms/send', { to: PHONE, msg: '' })).json()).toMatchObject({ status: 'ERROR', status_code: 203 });
  expect((await api('sms/send', { to: PHONE, msg: 'x', from: 'TwelveLetter' })).json()).toMatchObject({ status: 'ERROR', status_code: 204 });
  expect((await api('sms/status', { sms_id: 'none' })).json().sms.none).toMatchObject({ status: 'ERROR', status_code: -1 });
  expect(await textsTo(server.app, PHONE)).toHaveLength(0);
});

test('faults: a phone refused, the provider answering 500', async () => {
  await smsFault(server.app, 'send-refused', true, PHONE);
  expect((await api('sms/send', { to: PHONE, msg: 'x' })).json()).toMatchObject({ status: 'OK', sms: { [PHONE]: { status: 'ERROR', status_code: 207 } } });
  await smsFault(server.app, 'provider-500');
  const down = await api('callcheck/add', { phone: PHONE });
  expect(down.statusCode).toBe(500);
  expect(await server.app.store.db.selectFrom('sandbox_smsru_checks').selectAll().execute()).toEqual([]);
  expect(await textsTo(server.app, PHONE)).toHaveLength(0);
  // The switches take what they know only.
  const bad = await server.app.inject({ method: 'POST', url: '/sandbox/smsru/faults', payload: { fault: 'everything', on: true } });
  expect(bad.statusCode).toBe(400);
});

test('callcheck/add gives the number to call; callcheck/status says 400, 401 after the call (with a callback), 402 after five minutes', async () => {
  const added = (await api('callcheck/add', { phone: PHONE })).json();
  expect(added).toEqual({
    status: 'OK',
    status_code: 100,
    check_id: expect.stringMatching(/^\d{6}-\d{3}$/),
    call_phone: FAKE_LINES[0],
    call_phone_pretty: '+7 (800) 500-82-75',
    call_phone_html: `<a href="callto:${FAKE_LINES[0]}">+7 (800) 500-82-75</a>`,
  });
  const status = async (checkId: string) => (await api('callcheck/status', { check_id: checkId }, 'GET')).json();
  expect(await status(added.check_id)).toEqual({ status: 'OK', status_code: 100, check_status: 400, check_status_text: 'Ожидаем звонка' });

  const call = await server.app.inject({ method: 'POST', url: '/sandbox/free-call', payload: { phone: PHONE } });
  expect(call.json()).toEqual({ success: true, answered: 1 });
  await server.app.background.idle();
  expect(await status(added.check_id)).toMatchObject({ check_status: 401 });
  expect(callbackRecords()).toEqual([[['callcheck_status', added.check_id, '401']]]);

  const later = (await api('callcheck/add', { phone: PHONE })).json();
  server.clock.advance(5 * 60_000);
  expect(await status(later.check_id)).toMatchObject({ check_status: 402 });
  expect((await api('callcheck/status', { check_id: 'nope' })).json()).toMatchObject({ status: 'ERROR', status_code: 202 });
  expect((await api('callcheck/add', { phone: '8999' })).json()).toMatchObject({ status: 'ERROR', status_code: 202 });
});
