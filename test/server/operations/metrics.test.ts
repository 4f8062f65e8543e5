import type { FastifyInstance } from 'fastify';
import { STATUS_READ_DELAYS_MS } from '../../../server/accounts/texts';
import { callCheckOutcomes, smsDeliveryOutcomes, smsSendOutcomes } from '../../../server/operations/metrics';
import { listenForMetrics } from '../../../server/operations/metricsAccess';
import { TEST_CARDS } from '../../../server/sandbox/acquirer';
import { demoAccount } from '../../../server/sandbox/demoBills';
import { parsePrometheusText, sampleValue, type Family } from '../../support/prometheusText';
import { DEV_CAPTCHA_TOKEN, openPage, payBillByCard, provePhone, smsFault, startServer, testEngine, type TestServer } from '../helpers';

const TOKEN = 'metrics-token-0123456789';

/** A merchant's webhook endpoint that takes everything. */
const acceptingEndpoint: typeof fetch = async () => new Response('ok', { status: 200 });

/** The app's metrics as Prometheus reads them (a strict reading: it throws on anything the format does not allow). */
async function scrape(app: FastifyInstance, headers: Record<string, string> = {}): Promise<Map<string, Family>> {
  const answer = await app.inject({ method: 'GET', url: '/metrics', headers });
  expect(answer.statusCode).toBe(200);
  expect(answer.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parsePrometheusText(answer.body);
}

/** Options of a server with the sandbox off (production): a real acquirer's settings, never reached here. */
const production = {
  sandbox: false,
  acquirerUrl: 'https://acquirer.example.ru/payment/rest/',
  acquirerUserName: 'shop',
  acquirerPassword: 'secret',
  acquirerCallbackKey: 'callback-key',
  smsruApiId: 'sms-key',
};

describe('who may read them', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  test('the sandbox serves them openly when no guard is set', async () => {
    server = await startServer();
    expect((await scrape(server.app)).size).toBeGreaterThan(0);
  });

  test('with the sandbox off and no guard: 404, as any unknown URL', async () => {
    server = await startServer(production);
    const answer = await server.app.inject({ method: 'GET', url: '/metrics' });
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toEqual({ success: false, error: 'Не найдено' });
  });

  test('METRICS_TOKEN: the bearer token, nothing less', async () => {
    server = await startServer({ ...production, metricsToken: TOKEN });
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const answer = await server.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(answer.statusCode).toBe(401);
      expect(answer.headers['www-authenticate']).toBe('Bearer');
    }
    expect((await scrape(server.app, { authorization: `Bearer ${TOKEN}` })).size).toBeGreaterThan(0);
  });

  test('METRICS_PORT: only the second listener serves them (with the token when set), and it stops with the app', async () => {
    server = await startServer({ metricsPort: 0, metricsToken: TOKEN });
    expect((await server.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(404);
    const port = await listenForMetrics(server.app, 0, '127.0.0.1');
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    const answer = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answer.status).toBe(200);
    expect(parsePrometheusText(await answer.text()).has('checkout_http_request_duration_seconds')).toBe(true);
    expect((await fetch(`${base}/health/live`)).status).toBe(404);

    await server.close();
    server = undefined;
    await expect(fetch(`${base}/metrics`)).rejects.toThrow();
  });
});

describe('what they say', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ webhookUrl: 'https://erp.example.ru/hooks', webhookFetch: acceptingEndpoint });
  });
  afterAll(() => server.close());

  test('the reader refuses what Prometheus would (so a parse proves the format)', () => {
    expect(() => parsePrometheusText('# TYPE a counter\na{b=c} 1\n')).toThrow(/not quoted/);
    expect(() => parsePrometheusText('# TYPE a counter\na 1\na 2\n')).toThrow(/twice/);
    expect(() => parsePrometheusText('a one\n')).toThrow(/not a number/);
    expect(() => parsePrometheusText('# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_count 1\n')).toThrow(/cumulative/);
    expect(() => parsePrometheusText('# TYPE a counter\na 1')).toThrow(/line feed/);
  });

  test('a card payment moves them: the Pay, the acquirer calls, its end, the webhooks and their backlog, the requests', async () => {
    const app = server.app;
    const before = await scrape(app);
    const count = (families: Map<string, Family>, name: string, labels: Record<string, string>) => sampleValue(families, name, labels) ?? 0;

    await payBillByCard(app, 'demo-anon', TEST_CARDS.pays);
    const paid = await scrape(app);
    const moved = (name: string, labels: Record<string, string>) => count(paid, name, labels) - count(before, name, labels);
    expect(moved('checkout_payments_started_total', { method: 'ALL', outcome: 'to_acquirer' })).toBe(1);
    expect(moved('checkout_payments_finished_total', { method: 'ALL', outcome: 'success' })).toBe(1);
    expect(moved('checkout_acquirer_call_duration_seconds_count', { method: 'register.do', outcome: 'ok' })).toBe(1);
    expect(moved('checkout_acquirer_call_duration_seconds_count', { method: 'getOrderStatusExtended.do', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(moved('checkout_http_request_duration_seconds_count', { method: 'POST', route: '/api/getPaymentUrl/', status_class: '2xx' })).toBe(1);
    expect(moved('checkout_http_request_duration_seconds_count', { method: 'GET', route: '/pay/:linkId', status_class: '2xx' })).toBe(1);
    // payment.succeeded and bill.paid wait in the outbox (the worker is driven by hand here)…
    expect(sampleValue(paid, 'checkout_webhook_outbox_backlog')).toBe(2);
    expect(sampleValue(paid, 'checkout_webhook_outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(0);

    // …until it delivers them.
    expect(await app.merchant.worker.deliverDue()).toBe(2);
    const delivered = await scrape(app);
    expect(count(delivered, 'checkout_webhook_deliveries_total', { outcome: 'delivered' }) - count(paid, 'checkout_webhook_deliveries_total', { outcome: 'delivered' })).toBe(2);
    expect(sampleValue(delivered, 'checkout_webhook_outbox_backlog')).toBe(0);
    expect(sampleValue(delivered, 'checkout_webhook_outbox_oldest_age_seconds')).toBe(0);
  });

  test('a refused Pay and a URL no route answers are counted by kind, never by what was asked', async () => {
    const app = server.app;
    const before = await scrape(app);
    const client = await openPage(app, 'demo-anon');
    const refused = await client.post('/api/getPaymentUrl/', { pointsSum: null, objectOID: 'demo-anon', cardTypeOID: 'demo-anon.NOPE', email: null, userOID: null, manager_id: null });
    expect(refused.statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: '/no/such/page-4f2a' })).statusCode).toBe(404);
    const after = await scrape(app);
    const moved = (name: string, labels: Record<string, string>) => (sampleValue(after, name, labels) ?? 0) - (sampleValue(before, name, labels) ?? 0);
    expect(moved('checkout_payments_started_total', { method: 'unknown', outcome: 'refused' })).toBe(1);
    expect(moved('checkout_http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status_class: '4xx' })).toBe(1);
  });

  test('each answer is timed once, into its own route\'s series: a HEAD apart from its GET, a refusal in its class', async () => {
    const app = server.app;
    const name = 'checkout_http_request_duration_seconds';
    const before = await scrape(app);
    expect((await app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'HEAD', url: '/health/live' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/api/getResult/', payload: {} })).statusCode).toBe(403);
    const after = await scrape(app);
    const moved = (part: string, labels: Record<string, string>) => (sampleValue(after, `${name}_${part}`, labels) ?? 0) - (sampleValue(before, `${name}_${part}`, labels) ?? 0);
    const live = { method: 'GET', route: '/health/live', status_class: '2xx' };
    expect(moved('count', live)).toBe(1);
    expect(moved('count', { ...live, method: 'HEAD' })).toBe(1);
    expect(moved('count', { method: 'POST', route: '/api/getResult/', status_class: '4xx' })).toBe(1);
    // Every answer is in the +Inf bucket, and in no bucket below its time: an injected answer takes well under 10 s.
    expect(moved('bucket', { ...live, le: '+Inf' })).toBe(1);
    expect(moved('bucket', { ...live, le: '10' })).toBe(1);
    expect(moved('sum', live)).toBeGreaterThan(0);
    expect(moved('sum', live)).toBeLessThan(10);
  });

  test('no label carries an id, a phone or an e-mail', async () => {
    const app = server.app;
    const copy = await app.inject({ method: 'POST', url: '/sandbox/bills', payload: { from: 'demo-anon' } });
    const bill = copy.json<{ objectOID: string }>().objectOID;
    const orderId = await payBillByCard(app, bill, TEST_CARDS.declined, 'someone@example.ru');
    await provePhone(await openPage(app, 'demo-reg'), '79990000002', 'forgot-password', 'demo-reg');
    const values = [...(await scrape(app)).values()].flatMap((family) => family.samples.flatMap((sample) => Object.values(sample.labels)));
    expect(values.length).toBeGreaterThan(100);
    for (const value of values) {
      expect(value).not.toContain(orderId);
      expect(value).not.toContain(bill);
      expect(value).not.toMatch(/demo-(reg|anon)/);
      expect(value).not.toMatch(/\d{10}/);
      expect(value).not.toContain('@');
    }
  });

  test(`the database pool is there on PostgreSQL only (${testEngine()})`, async () => {
    const families = await scrape(server.app);
    if (testEngine() === 'postgres') {
      expect(sampleValue(families, 'checkout_db_pool_connections_max')).toBe(10);
      expect(sampleValue(families, 'checkout_db_pool_connections_in_use')).toBeGreaterThanOrEqual(0);
      expect(sampleValue(families, 'checkout_db_pool_connections_idle')).toBeGreaterThanOrEqual(1);
      expect(sampleValue(families, 'checkout_db_pool_waiting_queries')).toBe(0);
    } else {
      expect([...families.keys()].filter((name) => name.startsWith('checkout_db_pool'))).toEqual([]);
    }
  });

  test("the process's own: CPU, memory, event-loop lag", async () => {
    const families = await scrape(server.app);
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
      expect(families.has(name)).toBe(true);
    }
  });

  test('SMS sends and deliveries and call checks: every outcome from 0, moved by real texts and a real free call', async () => {
    const app = server.app;
    // A minute on: an earlier test's text may be sent again to its phone, and its delivery is read now, not below.
    server.clock.advance(61_000);
    await app.texts.runOnce();
    const before = await scrape(app);
    for (const outcome of smsSendOutcomes) expect(sampleValue(before, 'checkout_sms_sends_total', { outcome })).toEqual(expect.any(Number));
    for (const outcome of smsDeliveryOutcomes) expect(sampleValue(before, 'checkout_sms_deliveries_total', { outcome })).toEqual(expect.any(Number));
    for (const outcome of callCheckOutcomes) expect(sampleValue(before, 'checkout_call_checks_total', { outcome })).toEqual(expect.any(Number));
    expect(before.get('checkout_sms_sends_total')?.type).toBe('counter');

    // A restore code the provider takes, then the free call started and made from that phone.
    const payer = await openPage(app, 'demo-reg');
    const restore = { phone: demoAccount.phone, objectOID: 'demo-reg', captchaVerified: false, custNo: null, usePoints: false, captcha: null, purpose: 'forgot-password' };
    expect((await payer.post('/api/send-sms/', restore)).statusCode).toBe(200);
    expect((await payer.post('/ajax/realty/freeCallLock/', { phone: demoAccount.phone }, { form: true })).json().json.result).toBe(true);
    await app.inject({ method: 'POST', url: '/sandbox/free-call', payload: { phone: demoAccount.phone } });
    await app.background.idle();
    expect((await payer.post('/ajax/realty/freeCall/', { phone: demoAccount.phone }, { form: true })).json().json.result).toBe(true);
    // A registration code to a phone the provider refuses.
    const refusedPhone = '79990000077';
    await smsFault(app, 'send-refused', true, refusedPhone);
    const stranger = await openPage(app, 'demo-reg');
    const refused = await stranger.post('/api/send-sms/', { ...restore, phone: refusedPhone, purpose: 'register', captcha: DEV_CAPTCHA_TOKEN });
    expect(refused.statusCode).toBe(503);
    await smsFault(app, 'send-refused', false, refusedPhone);
    // The accepted text's delivery, read when it is due.
    server.clock.advance(STATUS_READ_DELAYS_MS[0]);
    await app.texts.runOnce();

    const after = await scrape(app);
    const moved = (name: string, outcome: string) => sampleValue(after, name, { outcome })! - sampleValue(before, name, { outcome })!;
    expect(moved('checkout_sms_sends_total', 'accepted')).toBe(1);
    expect(moved('checkout_sms_sends_total', 'refused')).toBe(1);
    expect(moved('checkout_sms_deliveries_total', 'delivered')).toBe(1);
    expect(moved('checkout_call_checks_total', 'started')).toBe(1);
    expect(moved('checkout_call_checks_total', 'confirmed')).toBe(1);
  });
});
