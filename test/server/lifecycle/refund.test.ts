import type { FastifyInstance } from 'fastify';
import { claimAttemptLease, releaseAttemptLease } from '../../../server/acquirer/attempts';
import { REFUND_UNSEEN_MS } from '../../../server/acquirer/refunder';
import { refundChart, refundStatusOf, type RefundEvent, type RefundState } from '../../../server/lifecycle/refund';
import { refundById } from '../../../server/payments/refundQueries';
import { TEST_CARDS } from '../../../server/sandbox/acquirer';
import { injectFetch } from '../../support/injectFetch';
import { exchangesOfAttempt } from '../../support/rows';
import { linkOf, merchantCall, payBillByCard, rbsFault, secondProcess, startServer, type TestServer } from '../helpers';
import { chartCoverage, chartPaths, movesBetween, movesCounted, walk, type ChartStep, type MoveCounts } from './model';
import { refundSamples } from './samples';

/*
 * A refund's chart, walked against the server: the merchant asks, the refund goes to the acquirer once (by this
 * process or the other one on the same database, whichever holds the payment's lease), and its end comes from the
 * acquirer's answer or, that answer lost, from the order read later. The network to the bank can drop a refund.do
 * before it arrives, or after (its answer lost, and every call after it until the network is back).
 */

type Network = 'up' | 'refund.do never arrives' | 'down from refund.do on';
let network: Network = 'up';

let server: TestServer;
let second: FastifyInstance;
let before: MoveCounts;

/** The acquirer as both processes reach it: through a network the test can drop. */
function throughNetwork(): typeof fetch {
  const toBank = injectFetch(() => server.app);
  let down = false;
  return async (input, init) => {
    const refund = String(input).endsWith('/refund.do');
    if (network === 'up') down = false;
    if (down) throw new TypeError('fetch failed: network unreachable');
    if (refund && network === 'refund.do never arrives') throw new TypeError('fetch failed: socket hang up');
    const answer = await toBank(input, init);
    if (refund && network === 'down from refund.do on') {
      down = true;
      throw new TypeError('fetch failed: socket hang up');
    }
    return answer;
  };
}

beforeAll(async () => {
  const fetch = throughNetwork();
  server = await startServer({ acquirerTimeoutMs: 2000, acquirerFetch: fetch });
  second = await secondProcess(server, { acquirerFetch: fetch });
  before = await movesCounted(server.app);
}, 60_000);
afterAll(async () => {
  await second?.close();
  await server?.close();
});
afterEach(() => {
  network = 'up';
});

const rub = (value: string) => ({ value, currency: 'RUB' });

interface World {
  orderId: string;
  refundId: string;
}

/**
 * A bill of 1 000.00 paid by card, and a refund of 400.00 asked while the other process holds the payment's lease (it
 * is talking to the acquirer about it): the refund waits, pending.
 */
async function start(): Promise<World> {
  const created = await merchantCall(server.app, 'POST', '/bills', { purpose: 'Модель возврата', amount: rub('1000.00'), paymentTypes: [{ code: 'ALL', name: 'Карта' }] });
  const orderId = await payBillByCard(server.app, linkOf(created.json().payUrl), TEST_CARDS.pays);
  await server.app.background.idle();
  const until = server.clock.now() + 3_600_000;
  expect(await claimAttemptLease(server.app.store, orderId, until)).toBe(true);
  leases.set(orderId, until);
  const asked = await merchantCall(second, 'POST', `/payments/${orderId}/refunds`, { amount: rub('400.00'), reason: 'Модель' });
  expect(asked.statusCode).toBe(201);
  return { orderId, refundId: asked.json().id };
}
const leases = new Map<string, number>();

const stateOf = async (world: World) => (await refundById(server.app.store, world.refundId))!.state;

/** Both processes at it: the first's own refund in the background, and the other's sweep. */
async function bothProcesses() {
  await Promise.all([server.app.background.idle(), second.background.idle(), second.gateway.sweep()]);
  await server.app.background.idle();
}

async function perform(world: World, steps: ChartStep<RefundEvent>[], at: number): Promise<number> {
  const step = steps[at]!;
  const next = steps[at + 1];
  switch (step.label) {
    case 'refund.sent': {
      // The lease is given back: whichever process takes it first sends the refund, once.
      if (next?.label === 'lostAnswer.unseen') network = 'refund.do never arrives';
      if (next?.label === 'lostAnswer.seen') network = 'down from refund.do on';
      if (next?.label === 'acquirer.refused') await rbsFault(server.app, 'refund-refused', true, world.orderId);
      await releaseAttemptLease(server.app.store, world.orderId, leases.get(world.orderId)!);
      await bothProcesses();
      // Answered: the answer is the next step too.
      return next?.label.startsWith('acquirer.') ? 2 : 1;
    }
    case 'lostAnswer.seen':
      // The network is back; the order shows the money given back.
      network = 'up';
      await second.gateway.sweep();
      return 1;
    case 'lostAnswer.unseen':
      // The network is back; the order never shows it, long past the time a refund takes to show.
      network = 'up';
      await second.gateway.sweep();
      expect(await stateOf(world)).toBe('sent');
      server.clock.advance(REFUND_UNSEEN_MS + 1);
      await second.gateway.sweep();
      return 1;
    default:
      throw new Error(`no way to make ${step.label} happen`);
  }
}

/** How many times the acquirer was asked to refund the payment (the exchanges log keeps every call, answered or not). */
const refundCalls = async (orderId: string) => (await exchangesOfAttempt(server.app.store, orderId)).filter((exchange) => exchange.method === 'refund.do').length;

const paths = chartPaths(refundChart, refundSamples);

describe('model paths of refund', () => {
  for (const path of paths) {
    test(path.name, async () => {
      const world = await walk(path, 'pending', { start, perform, stateOf });
      expect(await refundCalls(world.orderId)).toBe(1);
      // What the merchant API says of the refund is its state's status, the one mapping there is.
      const [shown] = (await merchantCall(server.app, 'GET', `/payments/${world.orderId}/refunds`)).json().data;
      expect(shown.status).toBe(refundStatusOf(path.steps.at(-1)!.state as RefundState));
    }, 60_000);
  }

  test('every state and transition of the refund chart is reached by some path', async () => {
    const report = chartCoverage(refundChart, movesBetween(before, await movesCounted(server.app)));
    console.log(report.line);
    expect(report.missing.map((item) => item.key)).toEqual([]);
  });
});
