import fs from 'node:fs';
import path from 'node:path';
import { DEV_CAPTCHA_TOKEN, openPage, payBySbp, provePhone, providersAt, startServer, textsTo, type TestServer } from '../helpers';
import { WIDGET_CSP } from '../../../server/sandbox/sberpay';
import { attemptByOrder } from '../../../server/payments/queries';
import { exchangesOfAttempt } from '../../support/rows';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server.close());

const payBody = (objectOID: string, cardTypeOID: string) => ({ pointsSum: null, objectOID, cardTypeOID, email: 'payer@example.ru', userOID: null, manager_id: null });

test('the card form has its labelled fields and button', async () => {
  const client = await openPage(server.app);
  const { formUrl } = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.ALL'))).json().info;
  const form = await server.app.inject({ method: 'GET', url: new URL(formUrl).pathname });
  for (const text of ['Номер карты', 'Срок действия', 'CVC', 'Оплатить']) expect(form.body).toContain(text);
  expect(form.body).not.toMatch(/<script(?![^>]*src=)/);
});

test('the SBP bank app pays or declines the attempt', async () => {
  const client = await openPage(server.app);
  const pay = async (outcome: 'pay' | 'decline', oid: string) => {
    const info = (await client.post('/api/getPaymentUrl/', payBody(oid, `${oid}.SBP`))).json().info;
    const app = await server.app.inject({ method: 'GET', url: new URL(info.data.payload).pathname });
    expect(app.body).toContain('>Оплатить</button>');
    expect(app.body).toContain('>Отклонить</button>');
    await payBySbp(server.app, info.data.payload, outcome);
    return (await client.post('/api/getResult/', { transactionID: info.data.qrcId, billOID: oid })).json().status;
  };
  expect(await pay('decline', 'demo-anon')).toBe('declined');
  expect(await pay('pay', 'demo-anon')).toBe('success');
  expect((await server.app.inject({ method: 'GET', url: '/sandbox/sbp/unknown' })).statusCode).toBe(404);
});

test('an order decided twice at once answers the paid order both times, so a double submit never lands on the fail page', async () => {
  const client = await openPage(server.app);
  const info = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.ALL'))).json().info;
  const acquirerOrderId = new URL(info.formUrl).pathname.split('/').pop()!;
  const decided = await Promise.all([0, 1].map(() => server.app.rbsFake!.decide(acquirerOrderId, true)));
  expect(decided.map((order) => order?.order_status)).toEqual([2, 2]);
  expect(decided.map((order) => new URL(server.app.rbsFake!.backUrl(order!)).pathname)).toEqual(['/success', '/success']);
});

describe('bank-app pay widget (local)', () => {
  test('its page has the three buttons, a static script, a CSP framing by self only', async () => {
    const client = await openPage(server.app);
    const info = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.SberPaySite'))).json().info;
    // The bank-app pay order is the acquirer's: its orderId is the widget's bankInvoiceId.
    expect(info.bankInvoiceId).toBe((await attemptByOrder(server.app.store, info.orderId))!.acquirer_order_id);
    const params = Buffer.from(JSON.stringify({ orderId: info.orderId, backUrl: 'http://localhost:3000/success' })).toString('base64');
    const page = await server.app.inject({ method: 'GET', url: `/sandbox/sberpay/widget?platform=desktop&orderId=${info.orderId}&params=${encodeURIComponent(params)}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('К оплате: <strong>');
    for (const label of ['>Оплатить</button>', '>Отклонить</button>', '>Закрыть</button>']) expect(page.body).toContain(label);
    expect(page.body).toContain('<script src="/sandbox/sberpay/widget.js"></script>');
    expect(page.body).not.toMatch(/<script(?![^>]*src=)/);
    expect(page.headers['content-security-policy']).toBe(WIDGET_CSP);
    expect(WIDGET_CSP).toContain("frame-ancestors 'self'");
    expect(WIDGET_CSP).not.toContain('unsafe-inline');

    const script = await server.app.inject({ method: 'GET', url: '/sandbox/sberpay/widget.js' });
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    for (const message of ["'success'", "'fail'", "'CLOSE_WIDGET'", "'GET_PARAMETERS'", "'GET_VERSION'", "'GET_ORDERID'", "'OPEN_LINK'"]) {
      expect(script.body).toContain(message);
    }
    // The checkout itself still refuses every frame.
    expect((await server.app.inject({ method: 'GET', url: '/pay/demo-anon' })).headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  test('the bank confirmation pays the order at the acquirer, and the product learns it through the protocol', async () => {
    const client = await openPage(server.app);
    const { orderId, bankInvoiceId } = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.SberPaySite'))).json().info;
    const confirm = await server.app.inject({ method: 'POST', url: `/sandbox/sberpay/${bankInvoiceId}/confirm`, payload: { outcome: 'pay' } });
    expect(confirm.json()).toEqual({ success: true, status: 'success' });
    await server.app.background.idle();
    // register.do with the bank app's return address, then the callback's getOrderStatusExtended.do.
    const exchanges = await exchangesOfAttempt(server.app.store, orderId);
    expect(exchanges.map((e) => e.method)).toEqual(['register.do', 'getOrderStatusExtended.do']);
    expect(JSON.parse(exchanges[0]!.request)).toMatchObject({ jsonParams: JSON.stringify({ 'sberpay.backurl': 'http://localhost:3000/success?billOid=demo-anon' }) });
    // Never the credentials.
    expect(exchanges[0]!.request).not.toContain('sandbox-password');
    expect((await client.post('/api/getResult/', { transactionID: orderId, billOID: 'demo-anon' })).json().status).toBe('success');
  });

  test('the widget script is plain browser JavaScript that parses', () => {
    const source = fs.readFileSync(path.join(__dirname, '../../../server/sandbox/sberpay-widget.js'), 'utf8');
    expect(() => new Function(source)).not.toThrow();
  });
});

test('the SMS outbox answers the newest messages of a phone', async () => {
  const client = await openPage(server.app);
  await provePhone(client, '79990003344', 'register');
  const outbox = await server.app.inject({ method: 'GET', url: '/sandbox/sms?phone=79990003344' });
  expect(outbox.json()).toEqual({
    phone: '79990003344',
    messages: [
      {
        id: expect.any(Number),
        smsId: expect.stringMatching(/^\d{6}-\d{8}$/),
        text: expect.stringContaining('Код подтверждения'),
        code: expect.stringMatching(/^\d{4}$/),
        password: null,
        sentAt: expect.any(String),
      },
    ],
  });
  expect((await server.app.inject({ method: 'GET', url: '/sandbox/sms?phone=123' })).statusCode).toBe(400);
  expect((await server.app.inject({ method: 'GET', url: '/sandbox/captcha' })).json()).toEqual({ token: DEV_CAPTCHA_TOKEN });
});

test('fresh bills are copies of a demo bill', async () => {
  const answer = await server.app.inject({ method: 'POST', url: '/sandbox/bills', payload: { from: 'demo-points' } });
  expect(answer.statusCode).toBe(201);
  const copy = await server.app.inject({ method: 'GET', url: `/ajax/object-info/${answer.json().objectOID}` });
  expect(copy.json()).toMatchObject({ usefulPoints: 3000, availablePoints: 4500 });
});

test('SANDBOX=0 turns every sandbox party off, the dev captcha included; payments and texts go to the configured parties', async () => {
  const off = await startServer(await providersAt(server));
  const client = await openPage(off.app);
  const { orderId, formUrl } = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.ALL'))).json().info;
  // The card form is the configured acquirer's (here another server's RBS fake), not this server's.
  const acquirerOrder = (await attemptByOrder(off.app.store, orderId))!.acquirer_order_id;
  expect(formUrl).toBe(`http://localhost:3000/sandbox/acquirer/${acquirerOrder}`);
  expect((await server.app.inject({ method: 'GET', url: new URL(formUrl).pathname })).statusCode).toBe(200);
  const urls: [string, string, unknown?][] = [
    ['GET', `/sandbox/acquirer/${acquirerOrder}`],
    ['POST', `/sandbox/acquirer/${acquirerOrder}`, { card: '4111111111111111', expiry: '12/30', cvc: '123' }],
    ['POST', '/sandbox/rbs/payment/rest/register.do', { userName: 'sandbox-shop', password: 'sandbox-password', orderNumber: '1', amount: '100', returnUrl: 'x' }],
    ['POST', '/sandbox/rbs/faults', { fault: 'callback-lost', on: true }],
    ['GET', `/sandbox/sbp/${orderId}`],
    ['POST', `/sandbox/sbp/${orderId}`, { outcome: 'pay' }],
    ['GET', '/sandbox/sberpay/widget'],
    ['GET', '/sandbox/sberpay/widget.js'],
    ['POST', `/sandbox/sberpay/${orderId}/confirm`, { outcome: 'pay' }],
    ['GET', '/sandbox/sms?phone=79990000001'],
    ['GET', '/sandbox/captcha'],
    ['GET', '/sandbox/free-call'],
    ['GET', '/sandbox/free-call.js'],
    ['POST', '/sandbox/free-call', { phone: '79990000001' }],
    ['POST', '/sandbox/smsru/sms/send', { api_id: 'sandbox-api-id', to: '79990000001', msg: 'x' }],
    ['POST', '/sandbox/smsru/faults', { fault: 'provider-500', on: true }],
    ['POST', '/sandbox/bills', { from: 'demo-anon' }],
    ['GET', '/sandbox/csp-reports'],
    ['GET', '/sandbox/sandbox.css'],
  ];
  for (const [method, url, payload] of urls) {
    // With the session's cookie and CSRF token, so that nothing but the missing route can refuse it.
    const headers = { cookie: client.cookie, 'x-csrf-token': client.csrf };
    const answer = await off.app.inject({ method: method as 'GET' | 'POST', url, headers, ...(payload ? { payload: payload as Record<string, string> } : {}) });
    expect([url, answer.statusCode]).toEqual([url, 404]);
  }
  expect((await attemptByOrder(off.app.store, orderId))!.status).toBe('created');
  // The code's text goes to the configured provider (here the other server's SMS.ru fake), none to a fake of its own;
  // and the stand-in captcha token passes nothing.
  await client.post('/api/send-sms/', { phone: '79990001111', objectOID: 'demo-anon', captchaVerified: false, custNo: null, usePoints: false, captcha: null, purpose: 'register' });
  expect(await textsTo(server.app, '79990001111')).toEqual([expect.objectContaining({ text: expect.stringMatching(/^Код подтверждения: \d{4}\./) })]);
  expect(await textsTo(off.app, '79990001111')).toHaveLength(0);
  await client.post('/ajax/realty/login/', { login: '79990000002', phone: '79990000002', password: 'bad', captcha: '' }, { form: true });
  const withStandIn = await client.post('/ajax/realty/login/', { login: '79990000002', phone: '79990000002', password: 'demo-pass', captcha: DEV_CAPTCHA_TOKEN }, { form: true });
  expect(withStandIn.statusCode).toBe(400);
  await off.close();
});

test.each([
  [{}, 'ACQUIRER_URL is not set'],
  [{ acquirerUrl: 'https://bank.example/payment/' }, 'ACQUIRER_URL must be an http(s) URL ending in /payment/rest/'],
  [{ acquirerUrl: 'https://bank.example/payment/rest/' }, 'ACQUIRER_USERNAME is not set'],
  [{ acquirerUrl: 'https://bank.example/payment/rest/', acquirerUserName: 'shop' }, 'ACQUIRER_PASSWORD is not set'],
  [{ acquirerUrl: 'https://bank.example/payment/rest/', acquirerToken: 't' }, 'ACQUIRER_CALLBACK_KEY is not set'],
])('with the sandbox off and the acquirer not configured (%j) the server refuses to start, naming what is missing', async (acquirer, missing) => {
  await expect(startServer({ sandbox: false, ...acquirer })).rejects.toThrow(missing);
});
