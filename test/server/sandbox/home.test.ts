import { defaultOptions } from '../../../server/config';
import { optionsFromEnv } from '../../../server/environment';
import { demoBills } from '../../../server/sandbox/demoBills';
import { startServer, type TestServer } from '../helpers';
import { billByOid } from '../../../server/billing/queries';

/** A newcomer's first minutes: the start page, quiet logs, the merchant in the page config. */

let server: TestServer;
afterEach(() => server?.close());

describe('GET / with the sandbox on', () => {
  beforeEach(async () => {
    server = await startServer({ publicUrl: 'http://localhost:3000' });
  });

  test('a small Russian page: every demo bill linked, and the sandbox tools', async () => {
    const page = await server.app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<html lang="ru">');
    for (const bill of demoBills) expect(page.body).toContain(`<a href="/pay/${bill.oid}">`);
    expect(page.body).toContain('href="/sandbox/sms?phone=79990000001"');
    expect(page.body).toContain('href="/sandbox/free-call"');
    expect(page.body).toContain('curl -X POST');
    expect(page.body).toContain('http://localhost:3000/sandbox/bills');
    // A fresh copy of each bill there is to pay, a button away (none of the paid one).
    expect(page.body.match(/action="\/sandbox\/fresh-bill"/g)).toHaveLength(demoBills.filter((bill) => !bill.paid).length);
    // The merchant's side: the webhook inbox and the merchant API's document.
    expect(page.body).toContain('href="/sandbox/webhooks"');
    expect(page.body).toContain('href="/merchant/v1/openapi.json"');
  });

  test('values go into markup escaped (render.ts html)', async () => {
    const page = await server.app.inject({ method: 'GET', url: '/' });
    // The curl's JSON is shown as text: its quotes are escaped, not raw markup.
    expect(page.body).toContain('{&quot;from&quot;:&quot;demo-anon&quot;}');
    expect(page.body).toContain('«Северный парк»');
    // Amounts end their own sentence: no 'руб..'.
    expect(page.body).not.toContain('..');
  });

  test("'Новая копия счета' makes a fresh unpaid copy and opens its checkout", async () => {
    const answer = await server.app.inject({
      method: 'POST',
      url: '/sandbox/fresh-bill',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'from=demo-points',
    });
    expect(answer.statusCode).toBe(303);
    const oid = /^\/pay\/(demo-points-[0-9a-f]{12})$/.exec(answer.headers.location as string)?.[1];
    expect(oid).toBeDefined();
    expect(await billByOid(server.app.store, oid!)).toMatchObject({ status: 'open', copied_from: 'demo-points' });
    const unknown = await server.app.inject({ method: 'POST', url: '/sandbox/fresh-bill', payload: { from: 'no-such-demo' } });
    expect(unknown.statusCode).toBe(404);
    expect((await server.app.inject({ method: 'POST', url: '/sandbox/fresh-bill', payload: { from: '<b>' } })).statusCode).toBe(400);
  });
});

test('GET / with the sandbox off is no page', async () => {
  // Its acquirer and SMS provider: real ones' settings (nothing is paid or texted here, so they are never reached).
  server = await startServer({
    sandbox: false,
    acquirerUrl: 'https://bank.example/payment/rest/',
    acquirerToken: 'token',
    acquirerCallbackKey: 'key',
    smsruApiId: 'key',
  });
  expect((await server.app.inject({ method: 'GET', url: '/' })).statusCode).toBe(404);
});

describe('request logs are quiet by default (LOG_LEVEL)', () => {
  test('warn unless LOG_LEVEL says otherwise; an unknown level keeps the default', () => {
    expect(defaultOptions().logLevel).toBe('warn');
    expect(optionsFromEnv({}).logLevel).toBe('warn');
    expect(optionsFromEnv({ LOG_LEVEL: 'info' }).logLevel).toBe('info');
    expect(optionsFromEnv({ LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
    expect(optionsFromEnv({ LOG_LEVEL: 'loud' }).logLevel).toBe('warn');
  });

  test('the server logs at that level: no request lines at warn, request lines at info', async () => {
    server = await startServer({ logger: true });
    const levelOf = () => server.app.log as unknown as { level: string; isLevelEnabled(level: string): boolean };
    expect(levelOf().level).toBe('warn');
    expect(levelOf().isLevelEnabled('info')).toBe(false);
    await server.close();
    server = await startServer({ logger: true, logLevel: 'info' });
    expect(levelOf().isLevelEnabled('info')).toBe(true);
  });
});

describe('the merchant in the page config (trust)', () => {
  const unescape = (text: string) => text.replace(/&(quot|lt|gt|#39|amp);/g, (_, name: string) => ({ quot: '"', lt: '<', gt: '>', '#39': "'", amp: '&' })[name]!);
  const configOf = (body: string) => JSON.parse(unescape(/<meta name="config" content="([^"]*)"/.exec(body)![1]!)) as { merchant: unknown };

  test('the demo defaults, or MERCHANT_NAME, MERCHANT_SUPPORT_PHONE and MERCHANT_SUPPORT_EMAIL', async () => {
    expect(optionsFromEnv({})).toMatchObject({ merchantName: 'ООО «Демо Девелопмент»', merchantSupportPhone: '+7 (800) 555-01-00', merchantSupportEmail: 'support@example.com' });
    const named = optionsFromEnv({ MERCHANT_NAME: 'АО «Автодом»', MERCHANT_SUPPORT_PHONE: '+7 (495) 000-00-00', MERCHANT_SUPPORT_EMAIL: '' });
    expect(named).toMatchObject({ merchantName: 'АО «Автодом»', merchantSupportPhone: '+7 (495) 000-00-00', merchantSupportEmail: '' });

    server = await startServer({ merchantName: 'АО «Автодом» <b>', merchantSupportPhone: '+7 (495) 000-00-00', merchantSupportEmail: 'help@avtodom.example' });
    for (const url of ['/pay/demo-anon', '/success?orderId=x&billOid=demo-anon']) {
      const page = await server.app.inject({ method: 'GET', url });
      expect(configOf(page.body).merchant).toEqual({ name: 'АО «Автодом» <b>', supportPhone: '+7 (495) 000-00-00', supportEmail: 'help@avtodom.example' });
      expect(page.body).not.toContain('<b>');
    }
  });
});
