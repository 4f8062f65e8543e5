import { http as mswHttp, HttpResponse, type DefaultBodyType, type StrictRequest } from 'msw';
import { setupServer } from 'msw/node';
import { createApi } from '../../src/services/api';
import { ApiError, createHttp, toApiError } from '../../src/services/http';
import { aBill } from '../fixtures/billBuilder';

/** What reached the network, for the assertions. */
interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
  credentials: RequestCredentials;
  body: string;
}
let seen: Seen[] = [];
const record = async (request: StrictRequest<DefaultBodyType>) => {
  seen.push({
    method: request.method,
    url: request.url,
    headers: Object.fromEntries(request.headers.entries()),
    credentials: request.credentials,
    body: await request.text(),
  });
};

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  seen = [];
});
afterAll(() => server.close());

/** Answers every request with `answer`, recording it. */
const answerAll = (answer: unknown = { success: true }) =>
  server.use(
    mswHttp.all('*', async ({ request }) => {
      await record(request);
      return HttpResponse.json(answer as Record<string, unknown>);
    }),
  );

let csrf = 'token-1';
let manager: string | null = 'mgr-7';
const makeApi = (providerBase = '') =>
  createApi({ http: createHttp({ csrfToken: () => csrf }), config: { product: 'realty', providerBase }, managerId: () => manager });

const only = () => {
  expect(seen).toHaveLength(1);
  return seen[0]!;
};
const json = (s: Seen) => JSON.parse(s.body) as unknown;
const form = (s: Seen) => Object.fromEntries(new URLSearchParams(s.body));

describe('every request', () => {
  test('sends cookies, the XMLHttpRequest header and the CSRF token read at request time', async () => {
    answerAll();
    const api = makeApi();
    await api.checkEmail('a@b.ru');
    csrf = 'token-2';
    await api.checkEmail('a@b.ru');
    expect(seen.map((s) => [s.credentials, s.headers['x-requested-with'], s.headers['x-csrf-token']])).toEqual([
      ['include', 'XMLHttpRequest', 'token-1'],
      ['include', 'XMLHttpRequest', 'token-2'],
    ]);
    csrf = 'token-1';
  });

  test('is never retried: a failed payment call reaches the server once', async () => {
    server.use(
      mswHttp.post('/api/getPaymentUrl/', async ({ request }) => {
        await record(request);
        return HttpResponse.json({ success: false, error: 'busy' }, { status: 503 });
      }),
    );
    await expect(makeApi().getPaymentUrl({ objectOID: 'b', pointsSum: null, cardTypeOID: 't', email: 'a@b.ru', userOID: null })).rejects.toMatchObject({
      name: 'ApiError',
      status: 503,
      message: 'busy',
    });
    expect(seen).toHaveLength(1);
  });
});

describe('local calls send JSON to their paths', () => {
  test.each<[string, (api: ReturnType<typeof makeApi>) => Promise<unknown>, string, unknown]>([
    ['check-email', (api) => api.checkEmail('a@b.ru'), '/ajax/check-email/', { email: 'a@b.ru' }],
    ['get-user', (api) => api.getUser('tok'), '/ajax/get-user', { token: 'tok' }],
    ['sendSMS (restore)', (api) => api.restorePassword('79990000002', 'cap'), '/ajax/sendSMS/', { login: '79990000002', captcha: 'cap' }],
    ['offerText', (api) => api.offerText('aggregator', 'bill-1', 'type-1'), '/api/offerText/', { type: 'aggregator', objectOID: 'bill-1', cardTypeOID: 'type-1' }],
    ['offerText (the executor’s, in the provider API’s spelling)', (api) => api.offerText('executor', 'bill-1', 'type-1'), '/api/offerText/', { type: 'executer', objectOID: 'bill-1', cardTypeOID: 'type-1' }],
    ['getResult', (api) => api.getResult('tx-1', 'bill-1'), '/api/getResult/', { transactionID: 'tx-1', billOID: 'bill-1' }],
    [
      'send-sms',
      (api) => api.sendCode({ phone: null, objectOID: 'b', captchaVerified: false, custNo: 'C-1', usePoints: true, captcha: null, purpose: 'use-points' }),
      '/api/send-sms/',
      { phone: null, objectOID: 'b', captchaVerified: false, custNo: 'C-1', usePoints: true, captcha: null, purpose: 'use-points' },
    ],
    [
      'check-code',
      (api) => api.checkCode({ code: '1234', phone: '79990000001', objectOID: 'b', custNo: null, usePoints: false, purpose: 'register' }),
      '/api/check-code/',
      { code: '1234', phone: '79990000001', objectOID: 'b', custNo: null, usePoints: false, purpose: 'register' },
    ],
  ])('%s', async (_name, run, path, body) => {
    answerAll();
    await run(makeApi());
    const s = only();
    expect([s.method, new URL(s.url).pathname]).toEqual(['POST', path]);
    expect(s.headers['content-type']).toBe('application/json');
    expect(json(s)).toEqual(body);
  });

  test('registration sends the patronymic under its misspelt alias too, and privacy as the personal-data agreement', async () => {
    answerAll({ success: true });
    await makeApi().register({ surname: 'Иванов', name: 'Иван', patronymic: 'Иванович', phone: '79990000003', privacy: true }, 'cap');
    const s = only();
    expect(new URL(s.url).pathname).toBe('/ajax/registration/');
    expect(json(s)).toEqual({
      surname: 'Иванов',
      name: 'Иван',
      patronymic: 'Иванович',
      patronimyc: 'Иванович',
      phone: '79990000003',
      privacy: true,
      personalDataAgreement: true,
      captcha: 'cap',
    });
  });

  test('the payment URL request carries manager_id from its cookie, or null without one', async () => {
    answerAll({ success: true, info: { orderId: 'o-1', formUrl: '/sandbox/card/o-1' } });
    const request = { objectOID: 'bill-1', pointsSum: 100, cardTypeOID: 'type-card', email: 'a@b.ru', userOID: 'user-1' };
    await expect(makeApi().getPaymentUrl(request)).resolves.toEqual({ success: true, info: { orderId: 'o-1', formUrl: '/sandbox/card/o-1' } });
    manager = null;
    await makeApi().getPaymentUrl(request);
    manager = 'mgr-7';
    expect(seen.map((s) => new URL(s.url).pathname)).toEqual(['/api/getPaymentUrl/', '/api/getPaymentUrl/']);
    expect(json(seen[0]!)).toEqual({ ...request, manager_id: 'mgr-7' });
    expect(json(seen[1]!)).toEqual({ ...request, manager_id: null });
  });

  test('object info is a GET of the escaped objectOID and answers the bill', async () => {
    server.use(
      mswHttp.get('/ajax/object-info/:id', async ({ request, params }) => {
        await record(request);
        return HttpResponse.json(aBill({ objectOID: String(params.id) }));
      }),
    );
    const bill = await makeApi().objectInfo('a/b c');
    const s = only();
    expect(s.method).toBe('GET');
    expect(new URL(s.url).pathname).toBe('/ajax/object-info/a%2Fb%20c');
    expect(bill.objectOID).toBe('a/b c');
  });
});

describe('provider host calls', () => {
  const formType = 'application/x-www-form-urlencoded;charset=UTF-8';

  test.each<[string, (api: ReturnType<typeof makeApi>) => Promise<unknown>, string, Record<string, string>]>([
    ['freeCallLock', (api) => api.freeCallLock('79990000001'), '/ajax/realty/freeCallLock/', { phone: '79990000001' }],
    ['freeCall', (api) => api.freeCall('79990000001'), '/ajax/realty/freeCall/', { phone: '79990000001' }],
    ['login', (api) => api.login('79990000002', 'demo-pass', 'cap'), '/ajax/realty/login/', { login: '79990000002', phone: '79990000002', password: 'demo-pass', captcha: 'cap' }],
    ['login without captcha', (api) => api.login('79990000002', 'p&ss=1', null), '/ajax/realty/login/', { login: '79990000002', phone: '79990000002', password: 'p&ss=1', captcha: '' }],
  ])('%s is form-encoded', async (_name, run, path, fields) => {
    answerAll({ success: true, json: { result: true } });
    await run(makeApi());
    const s = only();
    expect([s.method, new URL(s.url).pathname]).toEqual(['POST', path]);
    expect(s.headers['content-type']).toBe(formType);
    expect(form(s)).toEqual(fields);
  });

  test('go to the configured provider base, with the same headers', async () => {
    answerAll({ success: true, json: { token: 'tok' } });
    await expect(makeApi('https://provider.test').checkUser()).resolves.toEqual({ success: true, json: { token: 'tok' } });
    const s = only();
    expect(s.url).toBe('https://provider.test/ajax/realty/checkUser/');
    expect(s.body).toBe('');
    expect([s.headers['x-requested-with'], s.headers['x-csrf-token'], s.credentials]).toEqual(['XMLHttpRequest', 'token-1', 'include']);
  });

  test('logout is the local /ajax/logout first, then the provider logout', async () => {
    answerAll();
    await makeApi().logout();
    expect(seen.map((s) => [s.method, new URL(s.url).pathname])).toEqual([
      ['POST', '/ajax/logout'],
      ['POST', '/ajax/realty/logout/'],
    ]);
  });

  test('logout stops when the local logout fails', async () => {
    server.use(
      mswHttp.post('/ajax/logout', async ({ request }) => {
        await record(request);
        return HttpResponse.json({ success: false, error: 'no session' }, { status: 400 });
      }),
    );
    await expect(makeApi().logout()).rejects.toMatchObject({ status: 400, message: 'no session' });
    expect(seen).toHaveLength(1);
  });
});

describe('errors (logged with the message and the response error field)', () => {
  test('a 404 rejects with status 404 and the server message', async () => {
    server.use(mswHttp.post('/api/getResult/', () => HttpResponse.json({ success: false, error: 'Not found' }, { status: 404 })));
    const error = await makeApi()
      .getResult('tx', 'bill')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, message: 'Not found', body: { success: false, error: 'Not found' } });
  });

  test('a failure without a JSON body keeps the HTTP message', async () => {
    server.use(mswHttp.get('/ajax/object-info/:id', () => new HttpResponse('gateway down', { status: 502 })));
    const error = await makeApi()
      .objectInfo('x')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ApiError', status: 502, body: null });
    expect((error as Error).message).toMatch(/502/);
  });

  test('a network failure has status 0', async () => {
    server.use(mswHttp.post('/ajax/check-email/', () => HttpResponse.error()));
    await expect(makeApi().checkEmail('a@b.ru')).rejects.toMatchObject({ name: 'ApiError', status: 0 });
  });

  test('toApiError keeps an ApiError and wraps anything else', async () => {
    const apiError = new ApiError('x', 400);
    expect(await toApiError(apiError)).toBe(apiError);
    expect(await toApiError('plain')).toMatchObject({ message: 'plain', status: 0 });
  });
});
