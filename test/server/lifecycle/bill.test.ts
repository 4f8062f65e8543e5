import type { FastifyInstance } from 'fastify';
import { billByOid, typesOfBill } from '../../../server/billing/queries';
import { billChart, billColumnsOf, type BillEvent, type BillState } from '../../../server/lifecycle/bill';
import { attemptByOrder } from '../../../server/payments/queries';
import { startPayment } from '../../../server/payments/start';
import { TEST_CARDS } from '../../../server/sandbox/acquirer';
import { webhookEvents } from '../../support/rows';
import { Client, linkOf, merchantCall, payByCard, secondProcess, startServer, testEngine, type TestServer } from '../helpers';
import { chartCoverage, chartPaths, movesBetween, movesCounted, walk, type ChartPath, type ChartStep, type MoveCounts } from './model';
import { billSamples } from './samples';

/*
 * A bill's chart, walked against the server: paid whole or in parts by a payer whose Pay went to the other process
 * (a bill of 1 000.00 that may be paid in parts of 100.00 or more), cancelled or, paid, handed over through
 * the other process's merchant API, or expired by the sweeps of both processes at once (one closes it, the other
 * reads it closed and leaves it).
 */

let server: TestServer;
let second: FastifyInstance;
let before: MoveCounts;

beforeAll(async () => {
  server = await startServer();
  second = await secondProcess(server);
  before = await movesCounted(server.app);
}, 60_000);
afterAll(async () => {
  await second?.close();
  await server?.close();
});

const rub = (value: string) => ({ value, currency: 'RUB' });
const HOUR = 3_600_000;

interface World {
  objectOID: string;
  link: string;
  /** An attempt Pay made that never reached the acquirer: a closing bill ends it. */
  unsent: string;
  /** The payment that holds the bill's money, once one does. */
  held: string | null;
}

/**
 * A bill of 1 000.00 due in an hour, with an attempt that never reached the acquirer. It may be paid in parts of 100.00
 * or more; a path that holds the money takes a bill that captures by hand instead (a deposit is held in one payment;
 * cards only: its unsent attempt is on the bank's own form).
 */
async function start(path: ChartPath<BillEvent>): Promise<World> {
  const manual = path.steps.some((step) => step.label === 'payment.held');
  const created = await merchantCall(server.app, 'POST', '/bills', {
    purpose: 'Модель счета',
    amount: rub('1000.00'),
    ...(manual ? { paymentTypes: [{ code: 'ALL', name: 'Карта' }, { code: 'AllSberP', name: 'СберБанк Онлайн' }] } : { parts: { minimum: rub('100.00') }, paymentTypes: [{ code: 'ALL', name: 'Карта' }, { code: 'SBP', name: 'СБП' }] }),
    expiresAt: new Date(server.clock.now() + HOUR).toISOString(),
    ...(manual ? { capture: 'manual' } : {}),
  });
  const { objectOID, payUrl } = created.json<{ objectOID: string; payUrl: string }>();
  const bill = (await billByOid(server.app.store, objectOID))!;
  const other = (await typesOfBill(server.app.store, objectOID)).find((type) => type.code === (manual ? 'AllSberP' : 'SBP'));
  const started = await startPayment(server.app.store, { bill, type: other, points: 0, email: null, userOid: null, managerId: null, sessionId: null });
  return { objectOID, link: linkOf(payUrl), unsent: started.attempt.order_id, held: null };
}

/** The payer pays by card on a page and Pay served by the other process; the acquirer's callback reaches this one. */
async function pays(world: World, partSum: number | null = null): Promise<string> {
  const client = await new Client(second).open(world.link);
  const asked = await client.post('/api/getPaymentUrl/', { pointsSum: null, partSum, objectOID: world.link, cardTypeOID: `${world.link}.ALL`, email: 'payer@example.ru', userOID: null, manager_id: null });
  expect(asked.statusCode).toBe(200);
  const info = asked.json().info;
  await second.background.idle();
  expect((await payByCard(server.app, info.formUrl, TEST_CARDS.pays)).statusCode).toBe(303);
  await server.app.background.idle();
  return info.orderId as string;
}

/** The merchant captures the held payment through the other process's merchant API: it is paid. */
async function captures(orderId: string): Promise<void> {
  expect((await merchantCall(second, 'POST', `/payments/${orderId}/capture`)).json()).toMatchObject({ status: 'success' });
}

const stateOf = async (world: World) => (await billByOid(server.app.store, world.objectOID))!.state;

async function perform(world: World, steps: ChartStep<BillEvent>[], at: number): Promise<number> {
  const step = steps[at]!;
  switch (step.label) {
    case 'payment.succeeded':
    case 'payment.succeeded (a part)': {
      // A held payment is captured through the other process's merchant API. Else the payer pays: a part is 300.00 of
      // what remains; a payment that pays the bill pays all that remains (the page's default).
      await (world.held ? captures(world.held) : pays(world, step.label === 'payment.succeeded' ? null : 300));
      return 1;
    }
    case 'payment.held':
      world.held = await pays(world);
      return 1;
    case 'payment.released':
      expect((await merchantCall(second, 'POST', `/payments/${world.held}/release`)).statusCode).toBe(200);
      world.held = null;
      return 1;
    case 'merchant.cancelled':
      expect((await merchantCall(second, 'POST', `/bills/${world.objectOID}/cancel`)).statusCode).toBe(200);
      return 1;
    case 'goods.handedOver': {
      const handedOver = await merchantCall(second, 'POST', `/bills/${world.objectOID}/handover`);
      expect(handedOver.statusCode).toBe(200);
      // One closing receipt per order that took the money: one, or one per part.
      const paid = (await merchantCall(server.app, 'GET', `/bills/${world.objectOID}`)).json().payments.filter((p: { status: string }) => p.status === 'success');
      expect(handedOver.json().closingReceipts.map((r: { orderId: string }) => r.orderId)).toEqual(paid.map((p: { orderId: string }) => p.orderId));
      return 1;
    }
    case 'deadline.passed': {
      server.clock.advance(HOUR);
      const sweeps = [() => server.app.merchant.worker.runOnce(), () => second.merchant.worker.runOnce()];
      // On PostgreSQL the two sweeps race; on SQLite two processes' transactions queue at the file (here, in one Node
      // process, a second connection's wait would hold up the first's commit), so they sweep one after the other.
      if (testEngine() === 'postgres') await Promise.all(sweeps.map((sweep) => sweep()));
      else for (const sweep of sweeps) await sweep();
      return 1;
    }
    default:
      throw new Error(`no way to make ${step.label} happen`);
  }
}

const paths = chartPaths(billChart, billSamples);

describe('model paths of bill', () => {
  for (const path of paths) {
    test(path.name, async () => {
      const world = await walk(path, 'open', { start, perform, stateOf });
      const end = path.steps.at(-1)!.state as BillState;
      // The columns the API and the page read the state by, and what the merchant heard: once, whichever process.
      expect(await billByOid(server.app.store, world.objectOID)).toMatchObject(billColumnsOf(end));
      // Newest first as read: told in the order they were queued.
      const heard = (await webhookEvents(server.app.store, 500))
        .filter((event) => JSON.parse(event.payload).data.objectOID === world.objectOID)
        .map((event) => event.type)
        .reverse();
      // Each move tells the merchant once: each part paid, the payment that left nothing, the close (the handover's
      // receipts tell of themselves later); a hold is told as the payment's (held, then released or, captured, succeeded).
      const billTold = { partlyPaid: 'bill.partially_paid', paid: 'bill.paid', cancelled: 'bill.cancelled', expired: 'bill.expired', open: null, held: null, handedOver: null } as const;
      const told = path.steps.flatMap(({ state }) => billTold[state as BillState] ?? []);
      expect(heard.filter((type) => type.startsWith('bill.'))).toEqual(told);
      const holds = path.steps.filter((step) => step.label === 'payment.held' || step.label === 'payment.released').map((step) => step.label);
      expect(heard.filter((type) => type === 'payment.held' || type === 'payment.released')).toEqual(holds);
      // A closing bill ends the attempt that never reached the acquirer; a paid or held one leaves it to the acquirer's word.
      expect((await attemptByOrder(server.app.store, world.unsent))!.state).toBe(end === 'cancelled' || end === 'expired' ? 'declined' : 'created');
    }, 60_000);
  }

  test('every state and transition of the bill chart is reached by some path', async () => {
    const report = chartCoverage(billChart, movesBetween(before, await movesCounted(server.app)));
    console.log(report.line);
    expect(report.missing.map((item) => item.key)).toEqual([]);
  });
});
