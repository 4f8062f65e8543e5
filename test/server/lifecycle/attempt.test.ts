import type { FastifyInstance } from 'fastify';
import { ORDER_STATUS, rbsClient } from '../../../server/acquirer/rbs';
import { billByOid, typesOfBill } from '../../../server/billing/queries';
import { SANDBOX_ACQUIRER } from '../../../server/config';
import { attemptChart, paymentStatusOf, type AttemptEvent, type AttemptState } from '../../../server/lifecycle/attempt';
import { attemptByOrder } from '../../../server/payments/queries';
import { startPayment } from '../../../server/payments/start';
import { TEST_CARDS } from '../../../server/sandbox/acquirer';
import { recordRbsRefund } from '../../../server/sandbox/rbsOrders';
import { injectFetch } from '../../support/injectFetch';
import { linkOf, merchantCall, openPage, payByCard, provePhone, rbsFault, secondProcess, startServer, type Client, type TestServer } from '../helpers';
import { chartCoverage, chartPaths, movesBetween, movesCounted, walk, type ChartPath, type ChartStep, type MoveCounts } from './model';
import { attemptNever, attemptSamples, heldForABillNotOpen } from './samples';

/*
 * The payment attempt's chart, walked against the server: every path Pay, the payer, the acquirer, the merchant and
 * the sweep can take an attempt along, with the acquirer's faults on the way (an answer lost, a time-out, a callback
 * lost, repeated or stale) and a second server process on the same database taking part.
 */

let server: TestServer;
/** Another server process on the same database: it sweeps, reconciles and races the first. */
let second: FastifyInstance;
let before: MoveCounts;

beforeAll(async () => {
  // Four seconds for a call to the acquirer: a loaded machine renders a QR in time; a lost answer costs that long.
  server = await startServer({ acquirerTimeoutMs: 4000 });
  second = await secondProcess(server);
  before = await movesCounted(server.app);
}, 60_000);
afterAll(async () => {
  await second?.close();
  await server?.close();
});

const rub = (value: string) => ({ value, currency: 'RUB' });

/** The sandbox's acquirer, reached as the bank's own back office would: to reverse or refund an order there. */
const bankOffice = () =>
  rbsClient({ baseUrl: `${server.app.appOptions.publicUrl}${SANDBOX_ACQUIRER.path}`, credentials: SANDBOX_ACQUIRER.credentials, fetch: injectFetch(() => server.app), timeoutMs: 20_000 });

/**
 * How the acquirer's word reaches the server when the payer pays: each payment of a path takes the next of these, so
 * every path of the acquirer's word is walked with every fault in turn.
 */
const deliveries = ['callback', 'callback twice and a stale one after it', 'callback lost, a poll', 'callback lost, the other process sweeps', 'callback lost, both processes reconcile at once'] as const;
type Delivery = (typeof deliveries)[number];
const delivered = new Set<Delivery>();
let nextDelivery = 0;

interface World {
  objectOID: string;
  link: string;
  client: Client;
  /** The way to pay: a card, or the bank's own form (a second way, for a second tab's payment of the same bill). */
  code: 'ALL' | 'AllSberP';
  points: number;
  customer: { custNo: string; phone: string } | null;
  orderId: string | null;
  /** Pay's answer for the attempt: its card form or QR. */
  info: { orderId: string; formUrl: string } | null;
}

let customers = 0;

/**
 * A bill of 1 000.00 payable by card or by the bank's own form; with a customer who has points when the path spends
 * them. (The fast payment's QR is left to its own tests: its rendering at the sandbox's acquirer is slow on a loaded
 * machine, and every way to pay meets the same chart.)
 */
async function start(path: ChartPath<AttemptEvent>): Promise<World> {
  const labels = path.steps.map((step) => step.label);
  const covered = labels.includes('points.covered');
  const spends = covered || labels.includes('acquirer.paid (points spent)');
  customers += 1;
  // A path that holds the money takes a bill that captures by hand (cards only).
  const manual = labels.some((label) => label.startsWith('acquirer.held'));
  const customer = spends ? { custNo: `MODEL-${customers}-${Date.now()}`, phone: `7999${String(4_000_000 + customers).padStart(7, '0')}` } : null;
  const created = await merchantCall(server.app, 'POST', '/bills', {
    purpose: `Модель платежа: ${path.name}`.slice(0, 200),
    amount: rub('1000.00'),
    paymentTypes: [
      { code: 'ALL', name: 'Карта' },
      { code: 'AllSberP', name: 'СберБанк Онлайн' },
    ],
    ...(customer ? { customer: { name: 'Модель', phone: customer.phone, custNo: customer.custNo }, points: { enabled: true, usefulLimit: 1000 } } : {}),
    ...(manual ? { capture: 'manual' } : {}),
  });
  expect(created.statusCode).toBe(201);
  const { objectOID, payUrl } = created.json<{ objectOID: string; payUrl: string }>();
  const link = linkOf(payUrl);
  if (customer) await merchantCall(server.app, 'POST', `/customers/${customer.custNo}/points`, { delta: 1000, reason: 'model' });
  const client = await openPage(server.app, link);
  if (customer) {
    // The path's setting-up, not what it proves: a path with points cannot start without the phone proved.
    const proved = await provePhone(client, customer.phone, 'use-points', link);
    if (proved.statusCode !== 200) throw new Error(`the model's phone was not proved: ${proved.statusCode}`);
  }
  const world: World = { objectOID, link, client, code: labels.includes('acquirer.paid (bill paid already)') ? 'AllSberP' : 'ALL', points: covered ? 1000 : spends ? 300 : 0, customer, orderId: null, info: null };
  // Pay's first half, as every Pay begins: the attempt, in its chart's first state (points that cover the bill make
  // and end it at once: that path's first event makes its row).
  if (!covered) {
    const bill = (await billByOid(server.app.store, objectOID))!;
    const type = (await typesOfBill(server.app.store, objectOID)).find((candidate) => candidate.code === world.code);
    const started = await startPayment(server.app.store, { bill, type, points: world.points, email: null, userOid: null, managerId: null, sessionId: null });
    world.orderId = started.attempt.order_id;
  }
  return world;
}

const stateOf = async (world: World): Promise<string | null> => (world.orderId ? (await attemptByOrder(server.app.store, world.orderId))!.state : null);

/** The payer's Pay on the page (the attempt made at the start, found again). */
async function pay(world: World) {
  const answer = await world.client.post('/api/getPaymentUrl/', {
    pointsSum: world.points > 0 ? world.points : null,
    objectOID: world.link,
    cardTypeOID: world.points >= 1000 ? null : `${world.link}.${world.code}`,
    email: 'payer@example.ru',
    userOID: null,
    manager_id: null,
  });
  await server.app.background.idle();
  return answer;
}

const fault = (name: string, on: boolean, world: World) => rbsFault(server.app, name, on, world.orderId!);

/** The payer pays on the acquirer's form, and the acquirer's word comes by `how`. */
async function payerPays(world: World, how: Delivery, card: string = TEST_CARDS.pays) {
  delivered.add(how);
  const lost = how.startsWith('callback lost');
  if (lost) await fault('callback-lost', true, world);
  if (how === 'callback twice and a stale one after it') {
    await fault('callback-twice', true, world);
    await fault('callbacks-reordered', true, world);
  }
  expect((await payByCard(server.app, world.info!.formUrl, card)).statusCode).toBe(303);
  if (how === 'callback lost, a poll') {
    // Not heard of for longer than the poll waits: the payer's next poll asks the acquirer.
    server.clock.advance(server.app.appOptions.reconcileAfterMs + 1);
    expect((await world.client.post('/api/getResult/', { transactionID: world.orderId, billOID: world.link })).statusCode).toBe(200);
    await server.app.background.idle();
  }
  if (how === 'callback lost, the other process sweeps') await second.gateway.sweep();
  if (how === 'callback lost, both processes reconcile at once') await Promise.all([server.app.gateway.reconcile(world.orderId!), second.gateway.reconcile(world.orderId!)]);
  await server.app.background.idle();
  await second.background.idle();
}

/** The payer pays; the acquirer's word comes by the next way in turn. */
const paysInTurn = (world: World, card?: string) => payerPays(world, deliveries[nextDelivery++ % deliveries.length]!, card);

/** Pay answered with the attempt's form or QR. */
async function payed(world: World) {
  const answer = await pay(world);
  expect(answer.statusCode).toBe(200);
  world.info = answer.json().info;
  expect(world.info!.orderId).toBe(world.orderId);
}

/** An automatic refund that must not be made yet (the path ends with the money still going back): the bank refuses it. */
const holdRefund = (world: World, steps: ChartStep<AttemptEvent>[], at: number) => (steps[at + 1]?.event.type === 'refund.succeeded' ? undefined : fault('refund-refused', true, world));

/** Makes the event of `steps[at]` happen (and the next one too where one act is both); answers how many it made. */
async function perform(world: World, steps: ChartStep<AttemptEvent>[], at: number): Promise<number> {
  const step = steps[at]!;
  const next = steps[at + 1];
  switch (step.label) {
    case 'register.sent': {
      const paidNext = steps[at + 2]?.event.type === 'acquirer.paid' || steps[at + 2]?.event.type === 'acquirer.held';
      if (next?.label === 'acquirer.registered' && paidNext) {
        // The usual Pay: register.do sent and answered in one request.
        await payed(world);
        return 2;
      }
      // register.do goes out and its answer is lost: timed out after the acquirer made the order (a card's form then
      // was never seen), or answered HTTP 500 before it made one.
      await fault(next?.label === 'form.lost' ? 'register-timeout' : 'register-500', true, world);
      expect((await server.timeOutHeldAnswers(world.orderId!, pay(world))).statusCode).toBe(503);
      await fault(next?.label === 'form.lost' ? 'register-timeout' : 'register-500', false, world);
      return 1;
    }
    case 'acquirer.registered':
      // Registered again a minute later: the acquirer's session then outlasts the attempt's by that minute.
      if (next?.label === 'session.expired') server.clock.advance(60_000);
      await payed(world);
      return 1;
    case 'form.lost': {
      // The next Pay finds the order, with no form: it ends this attempt and pays a fresh one.
      const answer = await pay(world);
      expect(answer.statusCode).toBe(200);
      expect(answer.json().info.orderId).not.toBe(world.orderId);
      return 1;
    }
    case 'session.expired': {
      const attempt = (await attemptByOrder(server.app.store, world.orderId!))!;
      // Past the attempt's session (not past the acquirer's, when it registered later): the other process sweeps.
      server.clock.advance(attempt.expires_at! - server.clock.now() + 1);
      await second.gateway.sweep();
      return 1;
    }
    case 'bill.closed':
      expect((await merchantCall(server.app, 'POST', `/bills/${world.objectOID}/cancel`)).statusCode).toBe(200);
      return 1;
    case 'points.covered': {
      const answer = await pay(world);
      expect(answer.json()).toMatchObject({ success: true, isClosedWithoutProcessing: true });
      world.orderId = answer.json().info.orderId;
      return 1;
    }
    case 'acquirer.paid':
      await paysInTurn(world);
      return 1;
    case 'acquirer.paid (another amount)': {
      // The acquirer takes another amount than was asked (support's case): never a success.
      const mdOrder = (await attemptByOrder(server.app.store, world.orderId!))!.acquirer_order_id!;
      await server.app.store.db.updateTable('sandbox_rbs_orders').set({ amount: 1 }).where('order_id', '=', mdOrder).execute();
      await paysInTurn(world);
      return 1;
    }
    case 'acquirer.paid (bill paid already)': {
      // Another tab pays the bill by card first; then this payer pays on the bank's own form. The acquirer fails to end
      // this payer's order when the other tab turns to the card (decline.do answers 500): both stay payable.
      await fault('decline-500', true, world);
      const other = await world.client.post('/api/getPaymentUrl/', { pointsSum: null, objectOID: world.link, cardTypeOID: `${world.link}.ALL`, email: 'payer@example.ru', userOID: null, manager_id: null });
      expect((await payByCard(server.app, other.json().info.formUrl)).statusCode).toBe(303);
      await holdRefund(world, steps, at);
      await paysInTurn(world);
      // Its automatic refund is made at once: the next step, when there is one, is that refund's success.
      return next?.event.type === 'refund.succeeded' ? 2 : 1;
    }
    case 'acquirer.paid (bill closed)':
      expect((await merchantCall(server.app, 'POST', `/bills/${world.objectOID}/cancel`)).statusCode).toBe(200);
      await holdRefund(world, steps, at);
      await paysInTurn(world);
      return 1;
    case 'acquirer.paid (points spent)':
      // The customer's points go elsewhere while the payer is on the acquirer's form.
      expect((await merchantCall(server.app, 'POST', `/customers/${world.customer!.custNo}/points`, { delta: -800, reason: 'spent elsewhere' })).statusCode).toBe(200);
      await holdRefund(world, steps, at);
      await paysInTurn(world);
      return 1;
    case 'acquirer.declined':
      await paysInTurn(world, TEST_CARDS.declined);
      return 1;
    case 'acquirer.declined (reversed)':
    case 'acquirer.refunded': {
      // Paid, its callback lost; the bank's back office then reverses or refunds the order before anyone asks.
      await fault('callback-lost', true, world);
      await payByCard(server.app, world.info!.formUrl);
      const mdOrder = (await attemptByOrder(server.app.store, world.orderId!))!.acquirer_order_id!;
      if (step.label === 'acquirer.refunded') {
        // Refunded whole in the bank's back office (the sandbox's own record of its order).
        const order = (await server.app.rbsFake!.order({ orderId: mdOrder }))!;
        expect(await recordRbsRefund(server.app.store, order, order.amount, order.refunded_items)).toMatchObject({ order_status: ORDER_STATUS.refunded });
      } else await bankOffice().reverse({ orderId: mdOrder });
      await second.gateway.sweep();
      return 1;
    }
    case 'refund.succeeded (a part)':
    case 'refund.succeeded (the rest)': {
      const body = step.label === 'refund.succeeded (a part)' ? { amount: rub('300.00') } : {};
      expect((await merchantCall(server.app, 'POST', `/payments/${world.orderId}/refunds`, body)).statusCode).toBe(201);
      await server.app.background.idle();
      return 1;
    }
    case 'acquirer.held':
      // The payer pays a bill that captures by hand: the acquirer holds the money; its word comes by the next way.
      await paysInTurn(world);
      return 1;
    case 'acquirer.held (bill not open)':
      // The merchant cancels the bill while the payer is on the form; the acquirer then holds the money. Its release
      // goes out at once: let go (the next step), or refused by the bank and the order read back still held.
      expect((await merchantCall(server.app, 'POST', `/bills/${world.objectOID}/cancel`)).statusCode).toBe(200);
      if (next?.label === 'acquirer.held') await fault('reverse-refused', true, world);
      await paysInTurn(world);
      return 2;
    case 'capture.sent':
    case 'release.sent':
      return captureOrRelease(world, step.label === 'capture.sent' ? 'capture' : 'release', next?.label);
    case 'acquirer.captured':
    case 'acquirer.released': {
      // The bank's back office takes or lets go of the held money, its callback lost: the other process's sweep reads it.
      await fault('callback-lost', true, world);
      const mdOrder = (await attemptByOrder(server.app.store, world.orderId!))!.acquirer_order_id!;
      if (step.label === 'acquirer.captured') await bankOffice().deposit({ orderId: mdOrder, amount: 0 });
      else await bankOffice().reverse({ orderId: mdOrder });
      await second.gateway.sweep();
      return 1;
    }
    default:
      throw new Error(`no way to make ${step.label} happen`);
  }
}

/**
 * The merchant captures or releases the held payment (through the other process's API), and the acquirer's answer is
 * the next step's: taken, let go (the bank's back office let it go first, or took it, its callback lost), or refused
 * (still held). (A lost answer settled by reading the order: test/server/payments/holds.test.ts.)
 */
async function captureOrRelease(world: World, what: 'capture' | 'release', next: string | undefined): Promise<number> {
  const call = (body?: unknown) => merchantCall(second, 'POST', `/payments/${world.orderId}/${what}`, body);
  const mdOrder = (await attemptByOrder(server.app.store, world.orderId!))!.acquirer_order_id!;
  if (next === 'acquirer.held') {
    await fault(`${what === 'capture' ? 'deposit' : 'reverse'}-refused`, true, world);
    expect((await call()).json()).toMatchObject({ error: { code: 'acquirer_unavailable' } });
    return 2;
  }
  const asked = next === 'acquirer.captured' ? 'capture' : 'release';
  if (asked !== what) {
    // The acquirer did the other thing first (its callback lost): the request's own call is refused, the order read.
    await fault('callback-lost', true, world);
    if (asked === 'capture') await bankOffice().deposit({ orderId: mdOrder, amount: 0 });
    else await bankOffice().reverse({ orderId: mdOrder });
    if (what === 'release') await fault('reverse-refused', true, world);
  }
  // A capture of a part: the rest is let go, the payment is what was taken.
  const answer = await call(what === 'capture' && asked === 'capture' ? { amount: rub('600.00') } : undefined);
  expect(answer.json()).toMatchObject({ status: asked === 'capture' ? 'success' : 'released' });
  await server.app.background.idle();
  await second.background.idle();
  return 2;
}

/**
 * The paths of a hold for a bill no longer open, walked whole: its release goes out with the move, so the attempt is
 * never left releasing by it; it ends let go, or held again when the bank refused the release.
 */
const sample = (label: string) => attemptSamples.find((candidate) => candidate.label === label)!;
const notOpenPaths: ChartPath<AttemptEvent>[] = (
  [
    ['acquirer.released', 'released'],
    ['acquirer.held', 'held'],
  ] as const
).map(([then, state]) => {
  const steps = [
    { ...sample('register.sent'), state: 'registering' },
    { ...sample('acquirer.registered'), state: 'registered' },
    { ...heldForABillNotOpen, state: 'releasing' },
    { ...sample(then), state },
  ];
  return { name: steps.map((step) => step.label).join(' → '), steps };
});

const paths = [...chartPaths(attemptChart, attemptSamples, attemptNever), ...notOpenPaths];

describe('model paths of attempt', () => {
  for (const path of paths) {
    test(path.name, async () => {
      const world = await walk(path, 'created', { start, perform, stateOf });
      // What the merchant API says of the payment is its state's status, the one mapping there is.
      const payment = (await merchantCall(server.app, 'GET', `/payments/${world.orderId}`)).json();
      expect(payment.status).toBe(paymentStatusOf(path.steps.at(-1)!.state as AttemptState));
    }, 60_000);
  }

  test('every state and transition of the attempt chart is reached by some path, the acquirer heard every way', async () => {
    const report = chartCoverage(attemptChart, movesBetween(before, await movesCounted(server.app)));
    console.log(report.line);
    expect(report.missing.map((item) => item.key)).toEqual([]);
    expect([...delivered].sort()).toEqual([...deliveries].sort());
  });
});
