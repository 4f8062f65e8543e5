import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';
import { DeskClient } from '../desk/deskClient';
import { REQUEST_ID_PATTERN, requestIdOf, trustedPeer } from '../../../server/operations/requestIds';
import { merchantCall, openPage, payByCard, startServer, type TestServer } from '../helpers';
import { webhookEvents } from '../../support/rows';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('a well-formed id: 8 to 64 letters, digits, dots, underscores, colons and hyphens, starting with a letter or digit', () => {
  for (const id of ['0f8fad5b-d9cb-469f-a165-70867728950e', 'a3f1c9e07b5d4e2f9a8b7c6d5e4f3a2b', 'req.1:abc_DEF-9', 'x'.repeat(64), '12345678']) {
    expect(REQUEST_ID_PATTERN.test(id)).toBe(true);
  }
  for (const id of ['1234567', 'x'.repeat(65), 'has a space', 'new\nline-123', '-leading-dash', 'ünïcödé-1234', 'a,b-12345678', '<script>1234', '']) {
    expect(REQUEST_ID_PATTERN.test(id)).toBe(false);
  }
});

test('the trusted proxies: addresses, CIDR ranges and the named ranges, IPv4 also when mapped into IPv6', () => {
  const trusted = trustedPeer(['10.0.0.0/8', '192.168.1.7', 'loopback']);
  for (const address of ['10.1.2.3', '::ffff:10.1.2.3', '192.168.1.7', '127.0.0.1', '::1']) expect(trusted(address)).toBe(true);
  for (const address of ['11.0.0.1', '192.168.1.8', '::ffff:11.0.0.1', '2001:db8::1', undefined]) expect(trusted(address)).toBe(false);
  expect(trustedPeer([])('127.0.0.1')).toBe(false);
});

test("a proxy's id is taken only from a trusted proxy, only when well formed, only once", () => {
  const idOf = requestIdOf(['10.0.0.5']);
  const request = (header: string | string[] | undefined, remoteAddress: string) => ({ headers: { 'x-request-id': header }, socket: { remoteAddress } }) as unknown as IncomingMessage;
  expect(idOf(request('proxy-id-0001', '10.0.0.5'))).toBe('proxy-id-0001');
  expect(idOf(request('proxy-id-0001', '10.0.0.6'))).toMatch(UUID);
  expect(idOf(request('bad id', '10.0.0.5'))).toMatch(UUID);
  // Node joins a repeated header with ", ", which no well-formed id contains; an array (a raw one) is refused as well.
  expect(idOf(request('proxy-id-0001, proxy-id-0002', '10.0.0.5'))).toMatch(UUID);
  expect(idOf(request(['proxy-id-0001', 'proxy-id-0002'], '10.0.0.5'))).toMatch(UUID);
  expect(idOf(request(undefined, '10.0.0.5'))).toMatch(UUID);
});

describe('on a server', () => {
  let server: TestServer;
  const received: { headers: Record<string, string> }[] = [];

  beforeAll(async () => {
    // The test's requests come from 127.0.0.1: here that is the proxy.
    server = await startServer({
      trustProxy: ['127.0.0.1'],
      webhookUrl: 'https://erp.example.ru/hooks',
      webhookFetch: async (_input, init) => {
        received.push({ headers: { ...(init?.headers as Record<string, string>) } });
        return new Response('ok', { status: 200 });
      },
    });
  });
  afterAll(() => server.close());

  test('every answer echoes its id: the proxy\'s when well formed, else a new one for each request', async () => {
    const given = await server.app.inject({ method: 'GET', url: '/health/live', headers: { 'x-request-id': 'edge-7f3a9c21' } });
    expect(given.headers['x-request-id']).toBe('edge-7f3a9c21');
    const made = await Promise.all([1, 2].map(() => server.app.inject({ method: 'GET', url: '/health/live', headers: { 'x-request-id': 'no' } })));
    expect(made[0]!.headers['x-request-id']).toMatch(UUID);
    expect(made[1]!.headers['x-request-id']).not.toBe(made[0]!.headers['x-request-id']);
    // A refusal and an unknown URL echo it too.
    expect((await server.app.inject({ method: 'POST', url: '/api/getResult/', headers: { 'x-request-id': 'edge-refused-1' } })).headers['x-request-id']).toBe('edge-refused-1');
    expect((await server.app.inject({ method: 'GET', url: '/nothing-here', headers: { 'x-request-id': 'edge-missing-1' } })).headers['x-request-id']).toBe('edge-missing-1');
    // So does a URL the router cannot read, refused before any hook runs.
    const malformed = await server.app.inject({ method: 'GET', url: '/pay/%E0%A4%A', headers: { 'x-request-id': 'edge-malformed-1' } });
    expect(malformed.statusCode).toBe(404);
    expect(malformed.headers['x-request-id']).toBe('edge-malformed-1');
  });

  test('not from a trusted proxy: the id is the server\'s own', async () => {
    const answer = await server.app.inject({ method: 'GET', url: '/health/live', headers: { 'x-request-id': 'client-made-up-1' }, remoteAddress: '203.0.113.9' });
    expect(answer.headers['x-request-id']).toMatch(UUID);
  });

  test('a Pay\'s id is on its acquirer exchanges; the callback\'s on the reconcile it causes and on the webhook events of the outcome', async () => {
    const client = await openPage(server.app, 'demo-anon');
    const pay = await client.post(
      '/api/getPaymentUrl/',
      { pointsSum: null, objectOID: 'demo-anon', cardTypeOID: 'demo-anon.ALL', email: 'payer@example.ru', userOID: null, manager_id: null },
      { headers: { 'x-request-id': 'pay-request-0001' } },
    );
    expect(pay.statusCode).toBe(200);
    const orderId = pay.json<{ info: { orderId: string } }>().info.orderId;
    const exchanges = () =>
      server.app.store.db.selectFrom('acquirer_exchanges').select(['method', 'request_id']).where('order_id', '=', orderId).orderBy('id').execute();
    expect(await exchanges()).toEqual([{ method: 'register.do', request_id: 'pay-request-0001' }]);

    // The acquirer's card form pays; its callback (a request of its own, with an id of its own) reconciles.
    await payByCard(server.app, pay.json<{ info: { formUrl: string } }>().info.formUrl);
    const reconciled = (await exchanges()).filter((exchange) => exchange.method === 'getOrderStatusExtended.do');
    expect(reconciled.length).toBeGreaterThanOrEqual(1);
    const callbackId = reconciled[0]!.request_id!;
    expect(callbackId).toMatch(UUID);
    const events = (await webhookEvents(server.app.store, 10)).filter((event) => event.payload.includes(orderId));
    expect(events.map((event) => [event.type, event.request_id]).sort()).toEqual([
      ['bill.paid', callbackId],
      ['payment.succeeded', callbackId],
    ]);
  });

  test('a merchant\'s call: its id on the event, on each delivery attempt, and sent to the merchant as X-Request-Id', async () => {
    await server.app.merchant.worker.deliverDue();
    received.length = 0;
    const created = await merchantCall(server.app, 'POST', '/bills', { purpose: 'Счет', amount: { value: '100.00', currency: 'RUB' } });
    const objectOID = created.json<{ objectOID: string }>().objectOID;
    const cancelled = await merchantCall(server.app, 'POST', `/bills/${objectOID}/cancel`, undefined, { 'x-request-id': 'erp-cancel-000042' });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.headers['x-request-id']).toBe('erp-cancel-000042');

    expect(await server.app.merchant.worker.deliverDue()).toBe(1);
    expect(received.map((delivery) => delivery.headers['x-request-id'])).toEqual(['erp-cancel-000042']);
    const attempts = await server.app.store.db
      .selectFrom('webhook_attempts')
      .innerJoin('webhook_events', 'webhook_events.id', 'webhook_attempts.event_id')
      .select(['webhook_events.type', 'webhook_events.request_id as eventRequest', 'webhook_attempts.request_id as attemptRequest'])
      .where('webhook_events.type', '=', 'bill.cancelled')
      .execute();
    expect(attempts).toEqual([{ type: 'bill.cancelled', eventRequest: 'erp-cancel-000042', attemptRequest: 'erp-cancel-000042' }]);
  });

  test("the worker's own round names no request", async () => {
    const created = await merchantCall(
      server.app,
      'POST',
      '/bills',
      { purpose: 'Счет', amount: { value: '100.00', currency: 'RUB' }, expiresAt: new Date(server.clock.now() + 60_000).toISOString() },
      { 'x-request-id': 'bill-creator-0001' },
    );
    const objectOID = created.json<{ objectOID: string }>().objectOID;
    server.clock.advance(61_000);
    await server.app.merchant.worker.runOnce();
    const expired = (await webhookEvents(server.app.store, 20)).filter((event) => event.type === 'bill.expired' && event.payload.includes(objectOID));
    expect(expired.map((event) => event.request_id)).toEqual([null]);
  });

  /** A copy of demo-anon of its own (its link id is its objectOID), paid by card up to the acquirer's form. */
  async function cardAttempt(client: Awaited<ReturnType<typeof openPage>>, headers: Record<string, string> = {}) {
    const bill = (await server.app.inject({ method: 'POST', url: '/sandbox/bills', payload: { from: 'demo-anon' } })).json<{ objectOID: string }>().objectOID;
    const body = { pointsSum: null, objectOID: bill, cardTypeOID: `${bill}.ALL`, email: 'payer@example.ru', userOID: null, manager_id: null };
    const pay = await client.post('/api/getPaymentUrl/', body, { headers });
    expect(pay.statusCode).toBe(200);
    return { bill, orderId: pay.json<{ info: { orderId: string } }>().info.orderId, formUrl: pay.json<{ info: { formUrl: string } }>().info.formUrl };
  }

  const methodsAndIds = (orderId: string) =>
    server.app.store.db.selectFrom('acquirer_exchanges').select(['method', 'request_id']).where('order_id', '=', orderId).orderBy('id').execute();

  test("a poll's id is on the reconcile it starts", async () => {
    const client = await openPage(server.app, 'demo-anon');
    const { bill, orderId } = await cardAttempt(client);
    // Not heard of for longer than a poll waits before asking the acquirer.
    server.clock.advance(server.app.appOptions.reconcileAfterMs + 1000);
    const polled = await client.post('/api/getResult/', { transactionID: orderId, billOID: bill }, { headers: { 'x-request-id': 'poll-request-0001' } });
    expect(polled.statusCode).toBe(200);
    await server.app.background.idle();
    expect((await methodsAndIds(orderId)).filter((exchange) => exchange.method !== 'register.do')).toEqual([
      { method: 'getOrderStatusExtended.do', request_id: 'poll-request-0001' },
    ]);
  });

  test("a desk action's id is on its audit line", async () => {
    const account = server.app.desk.demoAccounts.find((demo) => demo.role === 'admin')!;
    const desk = new DeskClient(server.app);
    await desk.get('/session');
    const signedIn = await desk.post('/sign-in', { email: account.email, password: account.password }, { 'x-request-id': 'desk-sign-in-0001' });
    expect(signedIn.statusCode).toBe(200);
    const lines = await server.app.store.db.selectFrom('desk_audit').select(['action', 'request_id']).where('request_id', '=', 'desk-sign-in-0001').execute();
    expect(lines).toEqual([{ action: 'session.signed_in', request_id: 'desk-sign-in-0001' }]);
  });

  test('no AsyncLocalStorage is ever entered: a page, a Pay, its payment and callback, polls, a merchant call, a desk sign-in, a delivery', async () => {
    // On Node 20 the first one entered would switch async hooks on for every promise of the process, for good.
    const run = jest.spyOn(AsyncLocalStorage.prototype, 'run');
    const enterWith = jest.spyOn(AsyncLocalStorage.prototype, 'enterWith');
    try {
      const client = await openPage(server.app, 'demo-anon');
      const { bill, orderId, formUrl } = await cardAttempt(client, { 'x-request-id': 'quiet-pay-000001' });
      await payByCard(server.app, formUrl);
      await server.app.background.idle();
      const polled = await client.post('/api/getResult/', { transactionID: orderId, billOID: bill });
      expect(polled.json<{ status: string }>().status).toBe('success');
      await merchantCall(server.app, 'POST', '/bills', { purpose: 'Счет', amount: { value: '100.00', currency: 'RUB' } });
      const account = server.app.desk.demoAccounts.find((demo) => demo.role === 'admin')!;
      await new DeskClient(server.app).signIn(account.email, account.password);
      expect(await server.app.merchant.worker.deliverDue()).toBeGreaterThan(0);
      expect(run).not.toHaveBeenCalled();
      expect(enterWith).not.toHaveBeenCalled();
    } finally {
      run.mockRestore();
      enterWith.mockRestore();
    }
  });
});
