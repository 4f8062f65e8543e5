import { countRows, linkOf, merchantCall, merchantKey, newIdempotencyKey, openPage, payBillByCard, payByCard as payOnTheForm, snapshot, startServer, type TestServer } from '../helpers';
import { TEXT_LINE_PROBLEM, TEXT_LINES_PROBLEM } from '../../../server/platform/patterns';
import { AttemptAbandoned } from '../../../server/payments/gatewayPort';
import { startPayment } from '../../../server/payments/start';
import { TEST_CARDS } from '../../../server/sandbox/acquirer';
import { billByOid, typesOfBill } from '../../../server/billing/queries';
import { pointsBalance } from '../../../server/loyalty/ledger';
import { attemptByOrder } from '../../../server/payments/queries';
import { refundsStateOf } from '../../support/rows';

let server: TestServer;

beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server.close());

const billBody = (extra: Record<string, unknown> = {}) => ({
  purpose: 'Оплата по договору № 17',
  amount: { value: '12345.67', currency: 'RUB' },
  customer: { name: 'Иванов Иван', phone: '79991234567', email: 'ivanov@example.ru', custNo: 'ERP-42' },
  ...extra,
});

const createBill = async (extra: Record<string, unknown> = {}) => {
  const response = await merchantCall(server.app, 'POST', '/bills', billBody(extra));
  expect(response.statusCode).toBe(201);
  const bill = response.json<{ objectOID: string; payUrl: string; status: string }>();
  // The page's name of the bill: the link id its payUrl ends with.
  return { ...bill, link: linkOf(bill.payUrl) };
};

/** A payer pays the bill, named by its link id, by card (the page's calls, then the sandbox acquirer's form). */
const payByCard = (link: string, card: string = TEST_CARDS.pays) => payBillByCard(server.app, link, card);

describe('authentication', () => {
  test('no key or a wrong key: 401 in the API error shape; the right key opens it; no cookie is ever set', async () => {
    const none = await server.app.inject({ method: 'GET', url: '/merchant/v1/bills/demo-anon' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
    expect(none.headers['www-authenticate']).toBe('Bearer');
    const wrong = await server.app.inject({ method: 'GET', url: '/merchant/v1/bills/demo-anon', headers: { authorization: `Bearer ${merchantKey(server.app)}x` } });
    expect(wrong.statusCode).toBe(401);
    const right = await merchantCall(server.app, 'GET', '/bills/demo-anon');
    expect(right.statusCode).toBe(200);
    const created = await merchantCall(server.app, 'POST', '/bills', billBody());
    expect(created.statusCode).toBe(201);
    for (const response of [none, wrong, right, created]) expect(response.headers['set-cookie']).toBeUndefined();
  });

  test('a POST needs no session and no CSRF token: the bearer key is the credential', async () => {
    expect(await countRows(server.app, 'sessions')).toBe(0);
    const created = await merchantCall(server.app, 'POST', '/bills', billBody(), { cookie: 'sid=forged' });
    expect(created.statusCode).toBe(201);
    expect(await countRows(server.app, 'sessions')).toBe(0);
  });

  test('the development key is generated once and kept: a second server on the database has the same', async () => {
    const key = merchantKey(server.app);
    expect(key).toMatch(/^sk_test_/);
    const { buildApp } = await import('../helpers');
    const second = await buildApp({ ...server.database, distDir: server.distDir, logger: false, webhookWorker: false });
    expect(second.merchant.devApiKey).toBe(key);
    await second.close();
  });

  test('MERCHANT_API_KEYS: each configured key opens the API, and no development key is made', async () => {
    await server.close();
    server = await startServer({ merchantApiKeys: ['sk_live_one', 'sk_live_two'] });
    expect(server.app.merchant.devApiKey).toBeNull();
    for (const key of ['sk_live_one', 'sk_live_two']) {
      const response = await server.app.inject({ method: 'GET', url: '/merchant/v1/bills/demo-anon', headers: { authorization: `Bearer ${key}` } });
      expect(response.statusCode).toBe(200);
    }
    const other = await server.app.inject({ method: 'GET', url: '/merchant/v1/bills/demo-anon', headers: { authorization: 'Bearer sk_live_three' } });
    expect(other.statusCode).toBe(401);
  });

  test('requests beyond the per-key limit are refused with 429 and Retry-After; another key still passes', async () => {
    await server.close();
    server = await startServer({ merchantApiKeys: ['key-a', 'key-b'], merchantRateLimitPerMinute: 3 });
    const get = (key: string) => server.app.inject({ method: 'GET', url: '/merchant/v1/bills/demo-anon', headers: { authorization: `Bearer ${key}` } });
    for (let i = 0; i < 3; i++) expect((await get('key-a')).statusCode).toBe(200);
    const limited = await get('key-a');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await get('key-b')).statusCode).toBe(200);
    server.clock.advance(60_000);
    expect((await get('key-a')).statusCode).toBe(200);
  });
});

describe('POST /merchant/v1/bills', () => {
  test('201: an unpaid bill with its payUrl; the page opens it with its data and returnUrl', async () => {
    const response = await merchantCall(
      server.app,
      'POST',
      '/bills',
      billBody({ objectOID: 'erp-1001', returnUrl: 'https://shop.example.ru/orders/1001', points: { enabled: true, usefulLimit: 500 } }),
    );
    expect(response.statusCode).toBe(201);
    const bill = response.json();
    expect(bill).toMatchObject({
      objectOID: 'erp-1001',
      status: 'unpaid',
      payUrl: expect.stringMatching(/^http:\/\/localhost:3000\/pay\/pl_[\w-]{24}$/),
      purpose: 'Оплата по договору № 17',
      amount: { value: '12345.67', currency: 'RUB' },
      customer: { name: 'Иванов Иван', phone: '79991234567', email: 'ivanov@example.ru', custNo: 'ERP-42' },
      noReg: true,
      points: { enabled: true, usefulLimit: 500 },
      returnUrl: 'https://shop.example.ru/orders/1001',
      expiresAt: null,
      paidAt: null,
      closedAt: null,
      payments: [],
    });
    // The default payment types: the sandbox's three, with their commissions in kopecks exactly; the fast-payment
    // system capped at the server's default for one payment.
    expect(bill.paymentTypes).toEqual([
      { code: 'ALL', name: 'Банковская карта', commission: { value: '185.19', currency: 'RUB' }, maximum: null, showAggregatorOffer: false, showExecuterOffer: false },
      { code: 'SBP', name: 'СБП', commission: { value: '0.00', currency: 'RUB' }, maximum: { value: '1000000.00', currency: 'RUB' }, showAggregatorOffer: false, showExecuterOffer: false },
      { code: 'SberPaySite', name: 'SberPay', commission: { value: '61.73', currency: 'RUB' }, maximum: null, showAggregatorOffer: false, showExecuterOffer: false },
    ]);
    // One payment of the whole: nothing paid yet.
    expect(bill).toMatchObject({ parts: null, paid: { value: '0.00', currency: 'RUB' }, remaining: { value: '12345.67', currency: 'RUB' }, refunded: { value: '0.00', currency: 'RUB' } });
    // The page opens it by the link id the payUrl carries, and names it by that alone.
    const link = linkOf(bill.payUrl as string);
    const client = await openPage(server.app, link);
    const info = await client.get(`/ajax/object-info/${link}`);
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({ objectOID: link, info: { Summ: 12345.67, CustNo: 'ERP-42' }, noReg: true, returnUrl: 'https://shop.example.ru/orders/1001' });
    // The result page of the bill's payment carries it in its config, for 'Вернуться в магазин'.
    const config = async (query: string) => {
      const page = await client.get(`/success?${query}`);
      const raw = /<meta name="config" content="([^"]*)"/.exec(page.body)![1]!.replace(/&quot;/g, '"').replace(/&amp;/g, '&');
      return JSON.parse(raw) as { returnUrl: string | null };
    };
    expect((await config(`orderId=o-1&billOid=${link}`)).returnUrl).toBe('https://shop.example.ru/orders/1001');
    expect((await config('orderId=o-1&billOid=erp-1001')).returnUrl).toBeNull();
    expect((await config('orderId=o-1&billOid=demo-anon')).returnUrl).toBeNull();
    expect((await config('orderId=o-1&billOid=%3Cnot%20an%20id%3E')).returnUrl).toBeNull();
  });

  test('without an objectOID one is generated; given payment types are kept as sent', async () => {
    const bill = await createBill({
      paymentTypes: [{ code: 'SBP', name: 'Быстрый платеж', commission: { value: '10.50' }, showExecuterOffer: true }],
      noReg: false,
    });
    expect(bill.objectOID).toMatch(/^bill-[0-9a-f]{24}$/);
    const read = (await merchantCall(server.app, 'GET', `/bills/${bill.objectOID}`)).json();
    expect(read.noReg).toBe(false);
    expect(read.paymentTypes).toEqual([
      { code: 'SBP', name: 'Быстрый платеж', commission: { value: '10.50', currency: 'RUB' }, maximum: { value: '1000000.00', currency: 'RUB' }, showAggregatorOffer: false, showExecuterOffer: true },
    ]);
  });

  test('400: every bad field is listed, money as a number included, and nothing is written', async () => {
    const before = await countRows(server.app, 'bills');
    const response = await merchantCall(server.app, 'POST', '/bills', {
      purpose: '',
      amount: { value: 12345.67, currency: 'RUB' },
      customer: { phone: '89991234567' },
      colour: 'red',
    });
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error.code).toBe('invalid_request');
    const fields = error.fields.map((f: { field: string }) => f.field);
    expect(fields).toEqual(expect.arrayContaining(['purpose', 'amount.value', 'customer.phone', 'colour']));
    expect(await countRows(server.app, 'bills')).toBe(before);
  });

  test('400: money with three places, a zero amount, points without custNo, an http returnUrl, a past expiresAt', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: { value: '10.005', currency: 'RUB' } }, 'amount.value'],
      [{ amount: { value: '10', currency: 'RUB' } }, 'amount.value'],
      [{ amount: { value: '0.00', currency: 'RUB' } }, 'amount.value'],
      [{ amount: { value: '1.00', currency: 'USD' } }, 'amount.currency'],
      [{ customer: { name: 'Без номера' }, points: { enabled: true, usefulLimit: 5 } }, 'points.enabled'],
      [{ returnUrl: 'http://shop.example.ru/back' }, 'returnUrl'],
      [{ returnUrl: 'javascript:alert(1)' }, 'returnUrl'],
      [{ expiresAt: new Date(server.clock.now() - 1000).toISOString() }, 'expiresAt'],
      [{ expiresAt: 'tomorrow' }, 'expiresAt'],
      [{ paymentTypes: [{ code: 'SBP', name: 'a' }, { code: 'SBP', name: 'b' }] }, 'paymentTypes'],
      [{ paymentTypes: [{ code: 'CASH', name: 'Наличные' }] }, 'paymentTypes[0].code'],
      [{ objectOID: 'has spaces' }, 'objectOID'],
    ];
    for (const [extra, field] of cases) {
      const response = await merchantCall(server.app, 'POST', '/bills', billBody(extra));
      expect({ field, status: response.statusCode }).toEqual({ field, status: 400 });
      expect(response.json().error.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
  });

  test('400: a POST without Idempotency-Key names the header', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/merchant/v1/bills',
      headers: { authorization: `Bearer ${merchantKey(server.app)}`, 'content-type': 'application/json' },
      payload: JSON.stringify(billBody()),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }]);
  });

  test('400: a body that is not JSON, or none at all', async () => {
    for (const payload of ['{"purpose":', '']) {
      const response = await server.app.inject({
        method: 'POST',
        url: '/merchant/v1/bills',
        headers: { authorization: `Bearer ${merchantKey(server.app)}`, 'idempotency-key': newIdempotencyKey(), 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('invalid_request');
    }
  });

  test('409: an objectOID that exists already (under another Idempotency-Key)', async () => {
    await createBill({ objectOID: 'erp-dup' });
    const again = await merchantCall(server.app, 'POST', '/bills', billBody({ objectOID: 'erp-dup' }));
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('bill_exists');
  });
});

/** Every row of every table but the per-key request counts (a refused request counts against its key like any other). */
const storedRows = async () => JSON.stringify((JSON.parse(await snapshot(server.app)) as [string, string[]][]).filter(([table]) => table !== 'rate_limit_hits'));

/** Characters no free text holds, in every field; and line breaks, which a field of one line does not hold either. */
const neverInText = { NUL: 'NUL\u0000inside', DEL: 'DEL\u007f', BEL: 'bell\u0007', ESC: '\u001b[31mred', CR: 'carriage\rreturn', 'half a character': 'half \ud800 of it', 'a low half alone': '\udc00 alone' };
const lineBreaks = { LF: 'two\nlines', tab: 'a\ttab', 'line separator': 'two\u2028lines', NEL: 'two\u0085lines' };

describe('free text: control characters, line breaks and half characters', () => {
  const item = (name: string) => ({ name, quantity: 1, price: { value: '12345.67', currency: 'RUB' }, vat: 'vat20', paymentMethod: 'full_prepayment', paymentObject: 'commodity' });
  const fields: [string, (text: string) => Record<string, unknown>][] = [
    ['purpose', (text) => ({ purpose: text })],
    ['customer.name', (text) => ({ customer: { name: text } })],
    ['customer.email', (text) => ({ customer: { email: `a${text}@example.ru` } })],
    ['paymentTypes[0].name', (text) => ({ paymentTypes: [{ code: 'ALL', name: text }] })],
    ['returnUrl', (text) => ({ returnUrl: `https://shop.example.ru/${text}` })],
    ['items[0].name', (text) => ({ items: [item(text)] })],
  ];

  test.each(fields)('POST /bills refuses them in %s with 400 validation_error naming the field, and stores nothing', async (field, body) => {
    const before = await storedRows();
    const bills = await countRows(server.app, 'bills');
    for (const [what, text] of Object.entries({ ...neverInText, ...lineBreaks })) {
      const response = await merchantCall(server.app, 'POST', '/bills', billBody(body(text)));
      expect({ what, status: response.statusCode, error: response.json().error }).toEqual({
        what,
        status: 400,
        error: { code: 'validation_error', message: 'The request has invalid fields', fields: [{ field, message: TEXT_LINE_PROBLEM }] },
      });
    }
    expect(await countRows(server.app, 'bills')).toBe(bills);
    expect(await storedRows()).toBe(before);
  });

  test('text no field may hold among other bad fields: still validation_error, every field at fault listed; other bad input alone stays invalid_request', async () => {
    const before = await storedRows();
    const both = await merchantCall(server.app, 'POST', '/bills', billBody({ purpose: 'NUL\u0000inside', amount: { value: '10', currency: 'RUB' } }));
    expect([both.statusCode, both.json().error.code]).toEqual([400, 'validation_error']);
    expect(both.json().error.fields).toEqual(expect.arrayContaining([{ field: 'purpose', message: TEXT_LINE_PROBLEM }, expect.objectContaining({ field: 'amount.value' })]));
    const amountOnly = await merchantCall(server.app, 'POST', '/bills', billBody({ amount: { value: '10', currency: 'RUB' } }));
    expect([amountOnly.statusCode, amountOnly.json().error.code, amountOnly.json().error.fields.map((f: { field: string }) => f.field)]).toEqual([400, 'invalid_request', ['amount.value']]);
    expect(await storedRows()).toBe(before);
  });

  test('a character outside the basic plane (both halves) is text like any other', async () => {
    const bill = await createBill({ purpose: 'Аванс за автомобиль 🚗', items: [item('Автомобиль 🚗')] });
    const read = (await merchantCall(server.app, 'GET', `/bills/${bill.objectOID}`)).json();
    expect([read.purpose, read.items[0].name]).toEqual(['Аванс за автомобиль 🚗', 'Автомобиль 🚗']);
  });

  test('a points reason may hold lines (tab, line feed) but no other control character nor half a character; nothing refused is stored', async () => {
    const before = await storedRows();
    const entries = await countRows(server.app, 'points_ledger');
    for (const [what, text] of Object.entries(neverInText)) {
      const response = await merchantCall(server.app, 'POST', '/customers/ERP-42/points', { delta: 5, reason: text });
      expect({ what, status: response.statusCode, error: response.json().error }).toEqual({
        what,
        status: 400,
        error: { code: 'validation_error', message: 'The request has invalid fields', fields: [{ field: 'reason', message: TEXT_LINES_PROBLEM }] },
      });
    }
    expect(await countRows(server.app, 'points_ledger')).toBe(entries);
    expect(await storedRows()).toBe(before);
    const lines = await merchantCall(server.app, 'POST', '/customers/ERP-42/points', { delta: 5, reason: 'Акция:\tвесна\nНачислено вручную' });
    expect([lines.statusCode, lines.json().entry.reason]).toEqual([200, 'Акция:\tвесна\nНачислено вручную']);
  });

  test('a list cursor with a control character is refused by its schema', async () => {
    const response = await merchantCall(server.app, 'GET', '/payments?cursor=a%00b');
    expect([response.statusCode, response.json().error.code, response.json().error.fields]).toEqual([400, 'validation_error', [{ field: 'cursor', message: TEXT_LINE_PROBLEM }]]);
  });
});

describe('Idempotency-Key', () => {
  test('the same key and body answer the first answer again, marked as a replay, and make one bill', async () => {
    const key = newIdempotencyKey();
    const first = await merchantCall(server.app, 'POST', '/bills', billBody(), { 'idempotency-key': key });
    // The same body with its keys in another order is the same request.
    const { customer, amount, purpose } = billBody();
    const again = await merchantCall(server.app, 'POST', '/bills', { customer, amount, purpose }, { 'idempotency-key': key });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await countRows(server.app, 'bills', { purpose: 'Оплата по договору № 17' })).toBe(1);
  });

  test('422: the same key with a different body; nothing is created', async () => {
    const key = newIdempotencyKey();
    await merchantCall(server.app, 'POST', '/bills', billBody(), { 'idempotency-key': key });
    const other = await merchantCall(server.app, 'POST', '/bills', billBody({ purpose: 'Другое' }), { 'idempotency-key': key });
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe('idempotency_key_reused');
    expect(await countRows(server.app, 'bills', { purpose: 'Другое' })).toBe(0);
    // The same key on another route is another request too.
    const points = await merchantCall(server.app, 'POST', '/customers/ERP-42/points', { delta: 5, reason: 'x' }, { 'idempotency-key': key });
    expect(points.statusCode).toBe(422);
  });

  test('10 concurrent requests with one key make one bill, and all answer it', async () => {
    const key = newIdempotencyKey();
    const answers = await Promise.all(Array.from({ length: 10 }, () => merchantCall(server.app, 'POST', '/bills', billBody(), { 'idempotency-key': key })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((a) => a.json().objectOID)).size).toBe(1);
    expect(await countRows(server.app, 'bills', { purpose: 'Оплата по договору № 17' })).toBe(1);
  });

  test('a refused request keeps no answer: the same key may be used once the cause is gone', async () => {
    const key = newIdempotencyKey();
    const debit = () => merchantCall(server.app, 'POST', '/customers/ERP-9/points', { delta: -10, reason: 'списание' }, { 'idempotency-key': key });
    expect((await debit()).statusCode).toBe(409);
    await merchantCall(server.app, 'POST', '/customers/ERP-9/points', { delta: 10, reason: 'начисление' });
    const retried = await debit();
    expect(retried.statusCode).toBe(200);
    expect(retried.json().balance).toBe(0);
  });

  test('keys are forgotten after 24 hours by the sweep', async () => {
    const key = newIdempotencyKey();
    await merchantCall(server.app, 'POST', '/customers/ERP-9/points', { delta: 1, reason: 'a' }, { 'idempotency-key': key });
    server.clock.advance(23 * 60 * 60_000);
    await server.app.merchant.worker.runOnce();
    expect(await countRows(server.app, 'idempotency_keys')).toBe(1);
    server.clock.advance(2 * 60 * 60_000);
    await server.app.merchant.worker.runOnce();
    expect(await countRows(server.app, 'idempotency_keys')).toBe(0);
  });
});

describe('GET /merchant/v1/bills/:objectOID', () => {
  test('404 for an unknown bill, 400 for an id that cannot be one', async () => {
    const missing = await merchantCall(server.app, 'GET', '/bills/no-such-bill');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    const bad = await merchantCall(server.app, 'GET', '/bills/bad%20id');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields[0].field).toBe('objectOID');
  });

  test('a paid bill: status paid, paidAt, and its payments with method, amounts, status and receipt e-mail', async () => {
    const { objectOID, link } = await createBill();
    await payByCard(link, TEST_CARDS.declined);
    server.clock.advance(1000);
    const orderId = await payByCard(link);
    const bill = (await merchantCall(server.app, 'GET', `/bills/${objectOID}`)).json();
    expect(bill.status).toBe('paid');
    expect(bill.paidAt).toBe(new Date(server.clock.now()).toISOString());
    expect(bill.payments).toHaveLength(2);
    expect(bill.payments.map((p: { status: string }) => p.status)).toEqual(['declined', 'success']);
    expect(bill.payments[1]).toEqual({
      orderId,
      objectOID,
      method: 'ALL',
      amount: { value: '12530.86', currency: 'RUB' },
      part: { value: '12345.67', currency: 'RUB' },
      commission: { value: '185.19', currency: 'RUB' },
      pointsUsed: 0,
      status: 'success',
      refunded: { value: '0.00', currency: 'RUB' },
      heldUntil: null,
      receiptEmail: 'payer@example.ru',
      receipt: expect.objectContaining({ issuer: 'acquirer', taxSystem: 'osn', items: [expect.objectContaining({ billPosition: 1, amount: { value: '12345.67', currency: 'RUB' } }), expect.objectContaining({ billPosition: null, amount: { value: '185.19', currency: 'RUB' } })] }),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });
});

describe('POST /merchant/v1/bills/:objectOID/cancel', () => {
  test('an unpaid bill is cancelled: its page shows the data error, it takes no payment, and money paid on a form still open goes back', async () => {
    const { objectOID, link } = await createBill();
    const client = await openPage(server.app, link);
    const started = await client.post('/api/getPaymentUrl/', { pointsSum: null, objectOID: link, cardTypeOID: `${link}.ALL`, email: 'payer@example.ru', userOID: null, manager_id: null });
    const { orderId, formUrl } = started.json().info as { orderId: string; formUrl: string };

    const cancelled = await merchantCall(server.app, 'POST', `/bills/${objectOID}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    // The acquirer knows this attempt and the protocol cannot cancel an unpaid order: it stays pending until the
    // acquirer ends it, so a payment made on the open form is not lost from sight.
    expect(cancelled.json()).toMatchObject({ objectOID, status: 'cancelled', closedAt: expect.any(String), payments: [{ orderId, status: 'created' }] });

    expect((await client.get(`/ajax/object-info/${link}`)).statusCode).toBe(409);
    const retry = await client.post('/api/getPaymentUrl/', { pointsSum: null, objectOID: link, cardTypeOID: `${link}.SBP`, email: 'payer@example.ru', userOID: null, manager_id: null });
    expect(retry.statusCode).toBe(422);
    // The payer pays on the form still open: a cancelled bill takes no money, so it is refunded at the acquirer.
    await payOnTheForm(server.app, formUrl);
    expect((await merchantCall(server.app, 'GET', `/bills/${objectOID}`)).json()).toMatchObject({ status: 'cancelled', payments: [{ orderId, status: 'refunded' }] });
    const attempt = (await attemptByOrder(server.app.store, orderId))!;
    expect(await refundsStateOf(server.app.store, orderId)).toEqual([{ kind: 'automatic', status: 'succeeded', amount_kopecks: attempt.amount_kopecks }]);

    // Cancelling again answers the cancelled bill (an empty body declared as JSON is no body, as curl scripts send it).
    const again = await merchantCall(server.app, 'POST', `/bills/${objectOID}/cancel`, undefined, { 'content-type': 'application/json' });
    expect(again.statusCode).toBe(200);
    expect(again.json().status).toBe('cancelled');
  });

  test('an attempt started but not yet sent to the acquirer is declined by the cancel, and no order is registered for it afterwards', async () => {
    const { objectOID } = await createBill();
    const store = server.app.store;
    const bill = (await billByOid(store, objectOID))!;
    const card = (await typesOfBill(store, objectOID)).find((type) => type.code === 'ALL')!;
    // Pay's first half (the attempt written), as a request that is about to call register.do.
    const started = await startPayment(store, { bill, type: card, points: 0, email: null, userOid: null, managerId: null, sessionId: null });
    if (started.kind !== 'attempt') throw new Error('expected an attempt');

    const cancelled = await merchantCall(server.app, 'POST', `/bills/${objectOID}/cancel`);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', payments: [{ orderId: started.attempt.order_id, status: 'declined' }] });
    // Pay's second half arrives late: the ended attempt is not registered at the acquirer.
    await expect(server.app.gateway.paymentInfo(started.attempt, card, bill)).rejects.toThrow(AttemptAbandoned);
    expect(await countRows(server.app, 'sandbox_rbs_orders')).toBe(0);
  });

  test('409 for a paid bill, 404 for an unknown one', async () => {
    const { objectOID, link } = await createBill();
    await payByCard(link);
    const refused = await merchantCall(server.app, 'POST', `/bills/${objectOID}/cancel`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('bill_paid');
    expect((await merchantCall(server.app, 'POST', '/bills/no-such-bill/cancel')).statusCode).toBe(404);
  });
});

describe('expiresAt', () => {
  test('past its time a bill is expired: the API says so, the page is told it expired (object-info, Pay), the sweep closes it', async () => {
    const expiresAt = new Date(server.clock.now() + 60 * 60_000).toISOString();
    const { objectOID, link } = await createBill({ expiresAt });
    expect((await merchantCall(server.app, 'GET', `/bills/${objectOID}`)).json()).toMatchObject({ status: 'unpaid', expiresAt });
    const client = await openPage(server.app, link);
    expect((await client.get(`/ajax/object-info/${link}`)).statusCode).toBe(200);

    server.clock.advance(60 * 60_000);
    expect((await merchantCall(server.app, 'GET', `/bills/${objectOID}`)).json().status).toBe('expired');
    // A payer opening the link now (the earlier session has ended meanwhile).
    const late = await openPage(server.app, link);
    const info = await late.get(`/ajax/object-info/${link}`);
    expect(info.statusCode).toBe(409);
    // Why, for the page to say it: not a data error.
    expect(info.json()).toEqual({ success: false, error: 'Срок оплаты счета истек', closedAs: 'expired' });
    const pay = await late.post('/api/getPaymentUrl/', { pointsSum: null, objectOID: link, cardTypeOID: `${link}.ALL`, email: 'payer@example.ru', userOID: null, manager_id: null });
    expect(pay.statusCode).toBe(422);
    expect(pay.json()).toEqual({ success: false, error: 'Срок оплаты счета истек', closedAs: 'expired' });

    await server.app.merchant.worker.runOnce();
    const swept = (await merchantCall(server.app, 'GET', `/bills/${objectOID}`)).json();
    expect(swept).toMatchObject({ status: 'expired', closedAt: new Date(server.clock.now()).toISOString() });
    const cancel = await merchantCall(server.app, 'POST', `/bills/${objectOID}/cancel`);
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().error.code).toBe('bill_expired');
  });
});

describe('points', () => {
  test('credit and debit answer the new balance; the page reads the same ledger; below zero is 409', async () => {
    const credit = await merchantCall(server.app, 'POST', '/customers/ERP-42/points', { delta: 700, reason: 'Покупка' });
    expect(credit.statusCode).toBe(200);
    expect(credit.json()).toEqual({ custNo: 'ERP-42', balance: 700, entry: { id: expect.any(Number), delta: 700, reason: 'Покупка', orderId: null, refundId: null, createdAt: expect.any(String) } });
    const debit = await merchantCall(server.app, 'POST', '/customers/ERP-42/points', { delta: -200, reason: 'Возврат' });
    expect(debit.json().balance).toBe(500);
    const tooMuch = await merchantCall(server.app, 'POST', '/customers/ERP-42/points', { delta: -501, reason: 'Слишком много' });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().error.code).toBe('balance_too_low');

    const { link } = await createBill({ points: { enabled: true, usefulLimit: 1000 } });
    const client = await openPage(server.app, link);
    expect((await client.get(`/ajax/object-info/${link}`)).json()).toMatchObject({ availablePoints: 500, usefulPoints: 500 });
  });

  test('concurrent debits never take the balance below zero', async () => {
    await merchantCall(server.app, 'POST', '/customers/ERP-7/points', { delta: 100, reason: 'a' });
    const debits = await Promise.all(Array.from({ length: 6 }, () => merchantCall(server.app, 'POST', '/customers/ERP-7/points', { delta: -30, reason: 'b' })));
    expect(debits.filter((d) => d.statusCode === 200)).toHaveLength(3);
    expect(debits.filter((d) => d.statusCode === 409)).toHaveLength(3);
    expect(await pointsBalance(server.app.store, 'ERP-7')).toBe(10);
  });

  test('400: a zero or fractional delta, a missing reason', async () => {
    for (const body of [{ delta: 0, reason: 'x' }, { delta: 1.5, reason: 'x' }, { delta: 5 }]) {
      expect((await merchantCall(server.app, 'POST', '/customers/ERP-42/points', body)).statusCode).toBe(400);
    }
  });

  test('GET: the balance and the ledger newest first, a page at a time', async () => {
    for (const delta of [10, 20, 30]) await merchantCall(server.app, 'POST', '/customers/ERP-5/points', { delta, reason: `+${delta}` });
    const first = (await merchantCall(server.app, 'GET', '/customers/ERP-5/points?limit=2')).json();
    expect(first.balance).toBe(60);
    expect(first.ledger.map((e: { delta: number }) => e.delta)).toEqual([30, 20]);
    const second = (await merchantCall(server.app, 'GET', `/customers/ERP-5/points?limit=2&cursor=${first.nextCursor}`)).json();
    expect(second.ledger.map((e: { delta: number }) => e.delta)).toEqual([10]);
    expect(second.nextCursor).toBeNull();
    expect((await merchantCall(server.app, 'GET', '/customers/ERP-5/points?cursor=nonsense')).statusCode).toBe(400);
  });
});

describe('GET /merchant/v1/payments', () => {
  test('every payment exactly once across pages; filters by status and time; a foreign cursor is 400', async () => {
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { link } = await createBill();
      made.push(await payByCard(link, TEST_CARDS.declined));
      // Two attempts at the same moment: the order id breaks the tie.
      made.push(await payByCard(link));
      server.clock.advance(1000);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: { orderId: string }[]; nextCursor: string | null } = (
        await merchantCall(server.app, 'GET', `/payments?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      ).json();
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((p) => p.orderId));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.sort()).toEqual([...made].sort());

    const succeeded = (await merchantCall(server.app, 'GET', '/payments?status=success')).json();
    expect(succeeded.data).toHaveLength(3);
    const since = new Date(server.clock.now() - 1000).toISOString();
    expect((await merchantCall(server.app, 'GET', `/payments?since=${since}`)).json().data).toHaveLength(2);
    expect((await merchantCall(server.app, 'GET', '/payments?cursor=bm9wZQ')).statusCode).toBe(400);
    expect((await merchantCall(server.app, 'GET', '/payments?limit=1000')).statusCode).toBe(400);
  });
});

describe('OpenAPI', () => {
  test('3.1, generated from the route schemas, documenting only /merchant/v1 routes', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/merchant/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toBe('3.1.0');
    const paths = Object.keys(doc.paths).sort();
    expect(paths).toEqual([
      '/merchant/v1/bills',
      '/merchant/v1/bills/{objectOID}',
      '/merchant/v1/bills/{objectOID}/cancel',
      '/merchant/v1/bills/{objectOID}/handover',
      '/merchant/v1/customers/{custNo}/points',
      '/merchant/v1/payments',
      '/merchant/v1/payments/{orderId}',
      '/merchant/v1/payments/{orderId}/capture',
      '/merchant/v1/payments/{orderId}/refunds',
      '/merchant/v1/payments/{orderId}/release',
    ]);
    const create = doc.paths['/merchant/v1/bills'].post;
    expect(create.requestBody.content['application/json'].schema.properties.amount.properties.value.pattern).toBe('^(0|[1-9][0-9]{0,12})\\.[0-9]{2}$');
    expect(create.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ in: 'header', name: 'idempotency-key', required: true })]));
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '409', '422', '429']));
    expect(create.responses['201'].content['application/json'].schema.properties.status.enum).toEqual(['unpaid', 'partially_paid', 'held', 'paid', 'handed_over', 'cancelled', 'expired']);
    // A deposit's routes, with the 409s of a payment not held and a capture above the hold.
    const capture = doc.paths['/merchant/v1/payments/{orderId}/capture'].post;
    expect(capture.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ in: 'header', name: 'idempotency-key', required: true })]));
    expect(capture.description).toMatch(/payment_not_held.*capture_exceeds_held/);
    expect(doc.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });
    // Its error codes: text no field may hold apart from other bad input.
    const refused = create.responses['400'].content['application/json'].schema;
    expect(refused.properties.error.properties.code.enum).toEqual(expect.arrayContaining(['validation_error', 'invalid_request']));
    expect(refused.description).toContain('`validation_error` when a free-text field');
  });

  test('an unknown route under the prefix answers 404 in the API error shape', async () => {
    const response = await merchantCall(server.app, 'GET', '/nothing-here');
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('not_found');
  });
});
