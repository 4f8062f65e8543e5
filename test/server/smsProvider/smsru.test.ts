import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SANDBOX_SMSRU } from '../../../server/config';
import { FAKE_LINES } from '../../../server/sandbox/smsruFake';
import { SmsProviderError } from '../../../server/smsProvider/port';
import { deliveryOf, smsRu } from '../../../server/smsProvider/smsru';
import { smsFault, startServer, textsTo, type TestServer } from '../helpers';

/**
 * The SMS.ru adapter against the sandbox's fake over real HTTP (the server listens on a port): every call, the
 * provider's error codes, a phone refused inside an OK answer, an answer that is no JSON, and time-outs.
 */

let server: TestServer;
let base: string;
beforeAll(async () => {
  // The fake holds a time-out's answer back past this server's own time-out (and 500 ms), longer than the adapter
  // waits in the time-out test below.
  server = await startServer({ smsTimeoutMs: 1_000 });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  server.app.appOptions.publicUrl = base;
});
afterAll(async () => {
  // An answer held back for a time-out leaves its connection open past the client's abort: close them all.
  server.app.server.closeAllConnections();
  await server.close();
});

const PHONE = '79995553311';
const adapter = (options: Partial<Parameters<typeof smsRu>[0]> = {}) =>
  smsRu({ baseUrl: `${base}${SANDBOX_SMSRU.path}`, apiId: SANDBOX_SMSRU.apiId, ...options });

/** The provider error a call ends in. */
async function failureOf(call: Promise<unknown>): Promise<SmsProviderError> {
  const error = await call.then(
    () => null,
    (failure: unknown) => failure,
  );
  if (!(error instanceof SmsProviderError)) throw new Error(`expected an SmsProviderError, got ${String(error)}`);
  return error;
}

test('sms/send: the text reaches the phone, its sms_id comes back, and sms/status reads its delivery', async () => {
  const { smsId } = await adapter().send(PHONE, 'Код подтверждения: 1234');
  expect(smsId).toMatch(/^\d{6}-\d{8}$/);
  expect(await textsTo(server.app, PHONE)).toEqual([expect.objectContaining({ sms_id: smsId, text: 'Код подтверждения: 1234' })]);
  expect(await adapter().status(smsId)).toEqual({ statusCode: 103, delivery: 'delivered' });
  // A sender name goes with the text when one is configured (the fake takes up to 11 characters).
  await adapter({ from: 'DemoShop' }).send(PHONE, 'С подписью');
});

test('a text the phone never got: its status says so', async () => {
  await smsFault(server.app, 'delivery-fails', true, PHONE);
  try {
    const { smsId } = await adapter().send(PHONE, 'Не дойдет');
    expect(await adapter().status(smsId)).toEqual({ statusCode: 106, delivery: 'not delivered' });
  } finally {
    await smsFault(server.app, 'delivery-fails', false, PHONE);
  }
});

test.each([
  [100, 'on the way'],
  [101, 'on the way'],
  [102, 'on the way'],
  [103, 'delivered'],
  [104, 'not delivered'],
  [108, 'not delivered'],
  [150, 'not delivered'],
])('status code %i is %s', (code, delivery) => {
  expect(deliveryOf(code)).toBe(delivery);
});

test("a phone refused inside an OK answer is a refusal with the phone's own code, not worth a retry", async () => {
  await smsFault(server.app, 'send-refused', true, PHONE);
  try {
    expect(await failureOf(adapter().send(PHONE, 'x'))).toMatchObject({ method: 'sms/send', kind: 'refused', statusCode: 207, down: false });
  } finally {
    await smsFault(server.app, 'send-refused', false, PHONE);
  }
  expect(await failureOf(adapter().send('7999', 'x'))).toMatchObject({ kind: 'refused', statusCode: 202, down: false });
});

test.each([
  ['a wrong api_id', { apiId: 'wrong' }, 'x', 200],
  ['a sender name not approved', { from: 'AVeryLongSenderName' }, 'x', 204],
  ['an empty text', {}, '', 203],
])('%s: the outer ERROR with its status_code', async (_, options, text, code) => {
  const failure = await failureOf(adapter(options).send(PHONE, text));
  expect(failure).toMatchObject({ kind: 'refused', statusCode: code, down: false });
  expect(failure.message).toMatch(new RegExp(`^sms/send: ${code} `));
});

test('an unknown sms_id: its entry inside sms says so', async () => {
  expect(await failureOf(adapter().status('000000-00000000'))).toMatchObject({ method: 'sms/status', kind: 'refused', statusCode: -1 });
});

test('callcheck/add and callcheck/status: the number to call, then waiting, confirmed by the call, expired', async () => {
  const check = await adapter().start(PHONE);
  expect(check).toEqual({ checkId: expect.stringMatching(/^\d{6}-\d{3}$/), callPhone: FAKE_LINES[0], callPhonePretty: '+7 (800) 500-82-75' });
  expect(await adapter().read(check.checkId)).toBe('waiting');
  // A second check of the phone while the first waits gets another number.
  const second = await adapter().start(PHONE);
  expect(second.callPhone).toBe(FAKE_LINES[1]);
  await server.app.smsruFake!.placeCall(PHONE, FAKE_LINES[0]);
  expect(await adapter().read(check.checkId)).toBe('confirmed');
  expect(await adapter().read(second.checkId)).toBe('waiting');
  server.clock.advance(5 * 60_000);
  expect(await adapter().read(second.checkId)).toBe('ended');
  expect(await failureOf(adapter().read('000000-000'))).toMatchObject({ method: 'callcheck/status', kind: 'refused', statusCode: 202 });
  expect(await failureOf(adapter().start('123'))).toMatchObject({ method: 'callcheck/add', kind: 'refused', statusCode: 202 });
});

test('the provider answering 500, or not in time: a failure worth a retry', async () => {
  await smsFault(server.app, 'provider-500');
  try {
    expect(await failureOf(adapter().send(PHONE, 'x'))).toMatchObject({ kind: 'http', down: true, message: 'sms/send: HTTP 500' });
    expect(await failureOf(adapter().start(PHONE))).toMatchObject({ kind: 'http', down: true });
  } finally {
    await smsFault(server.app, 'provider-500', false);
  }
  await smsFault(server.app, 'provider-timeout');
  try {
    const impatient = adapter({ timeoutMs: 300 });
    expect(await failureOf(impatient.send(PHONE, 'x'))).toMatchObject({ kind: 'timeout', down: true, message: 'sms/send: no answer in 300 ms' });
    expect(await failureOf(impatient.read('000000-000'))).toMatchObject({ method: 'callcheck/status', kind: 'timeout', down: true });
  } finally {
    await smsFault(server.app, 'provider-timeout', false);
  }
});

test('nobody listening: a network failure, worth a retry', async () => {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  expect(await failureOf(adapter({ baseUrl: `http://127.0.0.1:${port}/` }).send(PHONE, 'x'))).toMatchObject({ kind: 'network', down: true });
});

describe('another server that answers the API badly', () => {
  let answer: { status: number; body: string } = { status: 200, body: '' };
  let other: http.Server;
  let url: string;
  beforeAll(async () => {
    other = http.createServer((_request, response) => response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(other.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise((resolve) => other.close(resolve)));

  test.each([
    ['no JSON', 200, '<html>', { kind: 'not-json', down: true }],
    ['a JSON that is no object', 200, '[1]', { kind: 'not-json', down: true }],
    ['a service temporarily unavailable (220)', 200, JSON.stringify({ status: 'ERROR', status_code: 220, status_text: 'Сервис временно недоступен' }), { kind: 'refused', statusCode: 220, down: true }],
    ['a server error of its own (500)', 200, JSON.stringify({ status: 'ERROR', status_code: 500, status_text: 'Ошибка на сервере' }), { kind: 'refused', statusCode: 500, down: true }],
    ['an OK without the phone inside sms', 200, JSON.stringify({ status: 'OK', status_code: 100, sms: {} }), { kind: 'refused', down: false }],
    ['HTTP 502', 502, 'Bad Gateway', { kind: 'http', down: true }],
  ])('%s', async (_, status, body, expected) => {
    answer = { status, body };
    expect(await failureOf(adapter({ baseUrl: url }).send(PHONE, 'x'))).toMatchObject(expected);
  });

  test('a check status it does not know is a failure, not a guess', async () => {
    answer = { status: 200, body: JSON.stringify({ status: 'OK', status_code: 100, check_status: 499 }) };
    expect(await failureOf(adapter({ baseUrl: url }).read('1-1'))).toMatchObject({ kind: 'refused', message: "callcheck/status: the answer's check_status is 499" });
  });
});
