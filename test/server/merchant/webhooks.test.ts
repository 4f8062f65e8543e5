import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp, countRows, linkFor, merchantCall, openPage, payBillByCard, payBySbp, startServer, TEST_PASSWORD_COST, type TestServer } from '../helpers';
import { DEFAULT_RETRY_SCHEDULE_MS } from '../../../server/config';
import { retryScheduleFrom, webhookSecretFrom } from '../../../server/environment';
import { TEST_CARDS } from '../../../server/sandbox/acquirer';
import { signWebhook, verifyWebhook, webhookHeaders } from '../../../server/merchant/signature';
import { claimWebhookEvent, enqueueEvent } from '../../../server/merchant/outbox';
import { webhookAttemptsOf, webhookEvents } from '../../support/rows';

/** What a fake merchant endpoint received. */
interface Received {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * A merchant endpoint for the worker's fetch: `up` decides whether it answers 200 or is down (a refused connection);
 * 'slow' never answers (until the worker's time-out aborts it).
 */
function endpoint() {
  const received: Received[] = [];
  const state = { mode: 'up' as 'up' | 'down' | 'error' | 'slow' };
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (state.mode === 'down') throw new TypeError('fetch failed: connect ECONNREFUSED');
    if (state.mode === 'slow') {
      return new Promise<Response>((_resolve, reject) => {
        if (init?.signal?.aborted) reject(init.signal.reason);
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason));
      });
    }
    received.push({ url: String(input), headers: Object.fromEntries(Object.entries(init?.headers ?? {})), body: String(init?.body) });
    return new Response(state.mode === 'up' ? 'ok' : 'boom', { status: state.mode === 'up' ? 200 : 500 });
  };
  return { received, state, fetch };
}

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const SCHEDULE = [1_000, 5_000];

let server: TestServer;
let merchant: ReturnType<typeof endpoint>;

beforeEach(async () => {
  merchant = endpoint();
  server = await startServer({ webhookUrl: 'https://erp.example.ru/hooks', webhookSecret: SECRET, webhookRetryScheduleMs: SCHEDULE, webhookFetch: merchant.fetch });
});
afterEach(() => server.close());

async function newBill(app: FastifyInstance = server.app) {
  const response = await merchantCall(app, 'POST', '/bills', { purpose: 'Счет', amount: { value: '1000.00', currency: 'RUB' } });
  return response.json<{ objectOID: string }>().objectOID;
}

/** A payer pays the merchant's bill by card, on the page that names it by its link id. */
const pay = async (objectOID: string, card: string = TEST_CARDS.pays, app: FastifyInstance = server.app) => payBillByCard(app, await linkFor(app, objectOID), card);

const events = async (app: FastifyInstance = server.app) => (await webhookEvents(app.store, 100)).reverse();

describe('signatures (Standard Webhooks)', () => {
  test("the published Standard Webhooks test vector, and an HMAC computed here from the scheme's definition", () => {
    // From the Standard Webhooks specification's test suite.
    expect(signWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
    const id = 'msg_2f1c';
    const body = '{"id":"msg_2f1c","type":"bill.paid"}';
    const expected = crypto.createHmac('sha256', Buffer.alloc(32, 7)).update(`${id}.1700000000.${body}`).digest('base64');
    expect(webhookHeaders(SECRET, id, 1700000000, body)).toEqual({ 'webhook-id': id, 'webhook-timestamp': '1700000000', 'webhook-signature': `v1,${expected}` });
  });

  test('verification: a good message passes; a changed body, another secret, an old timestamp do not', () => {
    const body = '{"a":1}';
    const headers = webhookHeaders(SECRET, 'msg_1', 1_700_000_000, body);
    expect(verifyWebhook(SECRET, headers, body, 1_700_000_010)).toBe(true);
    // Several signatures (a secret being rotated): any may match.
    expect(verifyWebhook(SECRET, { ...headers, 'webhook-signature': `v1,AAAA ${headers['webhook-signature']}` }, body, 1_700_000_010)).toBe(true);
    expect(verifyWebhook(SECRET, headers, '{"a":2}', 1_700_000_010)).toBe(false);
    expect(verifyWebhook(`whsec_${Buffer.alloc(32, 8).toString('base64')}`, headers, body, 1_700_000_010)).toBe(false);
    expect(verifyWebhook(SECRET, headers, body, 1_700_000_000 + 301)).toBe(false);
    expect(verifyWebhook(SECRET, { ...headers, 'webhook-id': 'msg_2' }, body, 1_700_000_010)).toBe(false);
  });

  test('MERCHANT_WEBHOOK_SECRET must be whsec_ and enough base64; WEBHOOK_RETRY_SCHEDULE reads durations', () => {
    expect(webhookSecretFrom(SECRET)).toBe(SECRET);
    expect(() => webhookSecretFrom('secret')).toThrow(/whsec_/);
    expect(() => webhookSecretFrom('whsec_c2hvcnQ=')).toThrow(/whsec_/);
    expect(retryScheduleFrom('100ms, 2s,3m,1h')).toEqual([100, 2000, 180_000, 3_600_000]);
    expect(() => retryScheduleFrom('5 minutes')).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(DEFAULT_RETRY_SCHEDULE_MS.slice(0, 5)).toEqual([5000, 30_000, 120_000, 600_000, 3_600_000]);
    // Then every 6 h for 3 days.
    expect(DEFAULT_RETRY_SCHEDULE_MS.slice(5)).toEqual(Array(12).fill(6 * 3_600_000));
  });
});

describe('events in the outbox', () => {
  test('a card payment queues payment.succeeded and bill.paid with the payment, in the transaction that pays', async () => {
    const objectOID = await newBill();
    const orderId = await pay(objectOID);
    const queued = await events();
    expect(queued.map((e) => e.type)).toEqual(['payment.succeeded', 'bill.paid']);
    const paid = JSON.parse(queued[1]!.payload);
    expect(paid).toEqual({
      id: queued[1]!.id,
      type: 'bill.paid',
      createdAt: new Date(server.clock.now()).toISOString(),
      data: {
        objectOID,
        status: 'paid',
        amount: { value: '1000.00', currency: 'RUB' },
        paid: { value: '1000.00', currency: 'RUB' },
        remaining: { value: '0.00', currency: 'RUB' },
        paidAt: expect.any(String), payment: expect.objectContaining({ orderId, status: 'success', method: 'ALL' }) },
    });
  });

  test('a declined card queues payment.declined; a cancel queues bill.cancelled; a payment made after it, payment.refunded and its refund.succeeded', async () => {
    const objectOID = await newBill();
    await pay(objectOID, TEST_CARDS.declined);
    const link = await linkFor(server.app, objectOID);
    const client = await openPage(server.app, link);
    const started = await client.post('/api/getPaymentUrl/', { pointsSum: null, objectOID: link, cardTypeOID: `${link}.SBP`, email: 'payer@example.ru', userOID: null, manager_id: null });
    await merchantCall(server.app, 'POST', `/bills/${objectOID}/cancel`);
    expect((await events()).map((e) => e.type)).toEqual(['payment.declined', 'bill.cancelled']);
    // The QR the acquirer knows stays payable until its session ends; paid after the cancel, the money goes back.
    await payBySbp(server.app, started.json().info.data.payload as string);
    // Its automatic refund is made at once: refund.succeeded follows.
    expect((await events()).map((e) => e.type)).toEqual(['payment.declined', 'bill.cancelled', 'payment.refunded', 'refund.succeeded']);
  });

  test('an expired bill queues bill.expired once, however often the sweep runs', async () => {
    const response = await merchantCall(server.app, 'POST', '/bills', {
      purpose: 'Счет',
      amount: { value: '1.00', currency: 'RUB' },
      expiresAt: new Date(server.clock.now() + 1000).toISOString(),
    });
    const { objectOID } = response.json();
    server.clock.advance(1000);
    await server.app.merchant.worker.runOnce();
    await server.app.merchant.worker.runOnce();
    const expired = (await events()).filter((e) => e.type === 'bill.expired');
    expect(expired).toHaveLength(1);
    expect(JSON.parse(expired[0]!.payload).data).toMatchObject({ objectOID, status: 'expired' });
  });

  test('a failing transaction queues nothing: the event goes with the change or not at all', async () => {
    const objectOID = await newBill();
    await expect(
      server.app.store.transaction(async (tx) => {
        await enqueueEvent(tx, 'bill.cancelled', { objectOID });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await countRows(server.app, 'webhook_events')).toBe(0);
  });
});

describe('delivery', () => {
  test('delivered signed, with the Standard Webhooks headers; the merchant verifies it with the secret', async () => {
    const objectOID = await newBill();
    await pay(objectOID);
    expect(await server.app.merchant.worker.deliverDue()).toBe(2);
    expect(merchant.received.map((r) => JSON.parse(r.body).type)).toEqual(['payment.succeeded', 'bill.paid']);
    for (const request of merchant.received) {
      expect(request.url).toBe('https://erp.example.ru/hooks');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['webhook-timestamp']).toBe(String(Math.floor(server.clock.now() / 1000)));
      expect(verifyWebhook(SECRET, request.headers, request.body, Math.floor(server.clock.now() / 1000))).toBe(true);
      expect(request.headers['webhook-id']).toBe(JSON.parse(request.body).id);
    }
    const [event] = await events();
    expect(event).toMatchObject({ state: 'delivered', attempts: 1, delivered_at: server.clock.now() });
    // Nothing is sent twice.
    expect(await server.app.merchant.worker.deliverDue()).toBe(0);
  });

  test('endpoint down: retried on the schedule, delivered once it is up, every attempt recorded', async () => {
    const objectOID = await newBill();
    await pay(objectOID);
    merchant.state.mode = 'down';
    await server.app.merchant.worker.deliverDue();
    const [first] = await events();
    expect(first).toMatchObject({ state: 'pending', attempts: 1, next_attempt_at: server.clock.now() + SCHEDULE[0]! });

    // Not due yet: nothing is tried.
    expect(await server.app.merchant.worker.deliverDue()).toBe(0);
    server.clock.advance(SCHEDULE[0]!);
    merchant.state.mode = 'error';
    await server.app.merchant.worker.deliverDue();
    expect((await events())[0]).toMatchObject({ state: 'pending', attempts: 2, next_attempt_at: server.clock.now() + SCHEDULE[1]! });

    server.clock.advance(SCHEDULE[1]!);
    merchant.state.mode = 'up';
    await server.app.merchant.worker.deliverDue();
    expect((await events())[0]).toMatchObject({ state: 'delivered', attempts: 3 });
    const attempts = await webhookAttemptsOf(server.app.store, first!.id);
    expect(attempts.map((a) => [a.status_code, a.error === null])).toEqual([
      [null, false],
      [500, true],
      [200, true],
    ]);
    expect(attempts[0]!.error).toContain('ECONNREFUSED');
    // The same message id on every try (the merchant de-duplicates by it).
    expect(new Set(merchant.received.filter((r) => JSON.parse(r.body).type === 'payment.succeeded').map((r) => r.headers['webhook-id'])).size).toBe(1);
  });

  test('after the last retry the event has failed and is not tried again', async () => {
    await pay(await newBill());
    merchant.state.mode = 'error';
    for (const delay of [0, ...SCHEDULE]) {
      server.clock.advance(delay);
      await server.app.merchant.worker.deliverDue();
    }
    const [event] = await events();
    expect(event).toMatchObject({ state: 'failed', attempts: 3 });
    server.clock.advance(24 * 3_600_000);
    merchant.state.mode = 'up';
    expect(await server.app.merchant.worker.deliverDue()).toBe(0);
  });

  test('no answer within the time-out is a failed attempt', async () => {
    await server.close();
    merchant = endpoint();
    server = await startServer({ webhookUrl: 'https://erp.example.ru/hooks', webhookSecret: SECRET, webhookRetryScheduleMs: SCHEDULE, webhookFetch: merchant.fetch, webhookTimeoutMs: 50 });
    await pay(await newBill());
    merchant.state.mode = 'slow';
    await server.app.merchant.worker.deliverDue();
    const [event] = await events();
    expect(event).toMatchObject({ state: 'pending', attempts: 1 });
    expect((await webhookAttemptsOf(server.app.store, event!.id))[0]!.error).toBe('no answer in 50 ms');
  });

  test('survives a restart: events a stopped server could not deliver are delivered by the next one', async () => {
    await pay(await newBill());
    merchant.state.mode = 'down';
    await server.app.merchant.worker.deliverDue();
    await server.app.close();

    const up = endpoint();
    const next = await buildApp({
      ...server.database,
      distDir: server.distDir,
      logger: false,
      now: server.clock.now,
      passwordCost: TEST_PASSWORD_COST,
      sweepEveryMs: 0,
      webhookWorker: false,
      webhookUrl: 'https://erp.example.ru/hooks',
      webhookSecret: SECRET,
      webhookRetryScheduleMs: SCHEDULE,
      webhookFetch: up.fetch,
    });
    try {
      server.clock.advance(SCHEDULE[0]!);
      expect(await next.merchant.worker.deliverDue()).toBe(2);
      expect(up.received.map((r) => JSON.parse(r.body).type)).toEqual(['payment.succeeded', 'bill.paid']);
      expect((await events(next)).every((e) => e.state === 'delivered')).toBe(true);
    } finally {
      // The helper's close() closes the first app (closed already, which is harmless) and drops the database; the
      // second is closed here, or its timers would outlive this file.
      await next.close();
    }
  });

  test('a lease keeps a second worker off an event being sent; once it runs out (the first died) the event is taken', async () => {
    await pay(await newBill());
    const [event] = await events();
    // Another process took it and died mid-delivery.
    expect(await claimWebhookEvent(server.app.store, event!.id, server.clock.now() + 10_000)).toBeDefined();
    expect(await claimWebhookEvent(server.app.store, event!.id, server.clock.now() + 10_000)).toBeUndefined();
    await server.app.merchant.worker.deliverDue();
    expect(merchant.received.map((r) => JSON.parse(r.body).type)).toEqual(['bill.paid']);
    server.clock.advance(10_000);
    await server.app.merchant.worker.deliverDue();
    expect(merchant.received.map((r) => JSON.parse(r.body).type)).toEqual(['bill.paid', 'payment.succeeded']);
  });

  test("a dead endpoint never holds up the payer: the payment's answer comes while the delivery still waits", async () => {
    await server.close();
    merchant = endpoint();
    merchant.state.mode = 'slow';
    const calls: string[] = [];
    let called!: () => void;
    const firstCall = new Promise<void>((resolve) => (called = resolve));
    const watched: typeof fetch = (input, init) => {
      calls.push(String(input));
      called();
      return merchant.fetch(input, init);
    };
    // The worker runs on its own here, woken by the queued event.
    server = await startServer({ webhookUrl: 'https://erp.example.ru/hooks', webhookSecret: SECRET, webhookFetch: watched, webhookWorker: true, webhookTimeoutMs: 60_000 });
    const objectOID = await newBill();
    await pay(objectOID);
    expect((await merchantCall(server.app, 'GET', `/bills/${objectOID}`)).json().status).toBe('paid');
    // The worker was woken (by the queued event, not by a sweep) and is still waiting on the endpoint.
    await firstCall;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls).toEqual(['https://erp.example.ru/hooks']);
  });
});

describe('the sandbox inbox', () => {
  /** The worker's fetch delivering into this same app (as `npm start` points the webhook at its own inbox). */
  const intoTheApp =
    (app: () => FastifyInstance): typeof fetch =>
    async (input, init) => {
      const response = await app().inject({ method: 'POST', url: new URL(String(input)).pathname, headers: init?.headers as Record<string, string>, payload: String(init?.body) });
      return new Response(response.statusCode === 204 ? null : response.body, { status: response.statusCode });
    };

  test('with no URL set, events go to /sandbox/webhooks, which verifies them and shows them', async () => {
    await server.close();
    server = await startServer({ webhookFetch: intoTheApp(() => server.app) });
    expect(server.app.merchant.webhookUrl()).toBe('http://localhost:3000/sandbox/webhooks');
    const objectOID = await newBill();
    await pay(objectOID);
    expect(await server.app.merchant.worker.deliverDue()).toBe(2);
    const inbox = (await server.app.inject({ method: 'GET', url: '/sandbox/webhooks.json' })).json();
    expect(inbox.webhooks.map((w: { type: string; valid: boolean }) => [w.type, w.valid])).toEqual([
      ['bill.paid', true],
      ['payment.succeeded', true],
    ]);
    expect((await events()).every((e) => e.state === 'delivered')).toBe(true);
    const page = await server.app.inject({ method: 'GET', url: '/sandbox/webhooks' });
    expect(page.body).toContain('bill.paid');
    expect(page.body).toContain('подпись верна');
    expect(page.body).toContain(objectOID);
  });

  test('a message with a bad signature is refused (401) and shown as such', async () => {
    const body = '{"id":"msg_forged","type":"bill.paid","data":{}}';
    const t = Math.floor(server.clock.now() / 1000);
    const forged = webhookHeaders(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, 'msg_forged', t, body);
    const response = await server.app.inject({ method: 'POST', url: '/sandbox/webhooks', headers: { ...forged, 'content-type': 'application/json' }, payload: body });
    expect(response.statusCode).toBe(401);
    const good = webhookHeaders(server.app.merchant.webhookSecret, 'msg_good', t, body);
    expect((await server.app.inject({ method: 'POST', url: '/sandbox/webhooks', headers: { ...good, 'content-type': 'application/json' }, payload: body })).statusCode).toBe(204);
    const inbox = (await server.app.inject({ method: 'GET', url: '/sandbox/webhooks.json' })).json();
    expect(inbox.webhooks.map((w: { id: string; valid: boolean }) => [w.id, w.valid])).toEqual([
      ['msg_good', true],
      ['msg_forged', false],
    ]);
  });

  test('the generated secret is kept: a restart signs with the same one', async () => {
    await server.close();
    server = await startServer();
    const secret = server.app.merchant.webhookSecret;
    expect(secret).toMatch(/^whsec_/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    const again = await buildApp({ ...server.database, distDir: server.distDir, logger: false, sweepEveryMs: 0, webhookWorker: false });
    expect(again.merchant.webhookSecret).toBe(secret);
    await again.close();
  });
});
