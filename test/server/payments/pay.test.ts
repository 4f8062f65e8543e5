import { insertSession } from '../../../server/accounts/sessionQueries';
import { insertVerification } from '../../../server/accounts/codeQueries';
import { markRegisterStarted } from '../../../server/acquirer/attempts';
import { billByOid } from '../../../server/billing/queries';
import { PaymentRefused } from '../../../server/payments/errors';
import { AcquirerUnavailable, AttemptAbandoned, type Gateway, type PaymentInfo } from '../../../server/payments/gatewayPort';
import { applyAcquirerOutcome } from '../../../server/payments/outcome';
import { pay, type PayRequest } from '../../../server/payments/pay';
import { attemptByOrder } from '../../../server/payments/queries';
import type { AttemptRow } from '../../../server/payments/tables';
import type { Store } from '../../../server/store/store';
import { attemptsOfBill } from '../../support/rows';
import { startStore, type TestStore } from '../helpers';

/**
 * Pay as a domain function, on a real store with a fake gateway: the rounds it takes (an attempt past its session
 * time-out reconciled first, an abandoned attempt replaced once) and what it refuses before any attempt is made.
 */
let t: TestStore;
beforeEach(async () => {
  t = await startStore();
  await insertSession(t.store, 'session-1', 'token-1');
});
afterEach(() => t.close());

const request = (overrides: Partial<PayRequest> = {}): PayRequest => ({
  billLink: 'demo-anon',
  cardTypeOid: 'demo-anon.ALL',
  points: 0,
  email: 'payer@example.ru',
  userOid: null,
  managerId: null,
  sessionId: 'session-1',
  ...overrides,
});

const infoOf = (attempt: AttemptRow): PaymentInfo => ({ orderId: attempt.order_id, formUrl: `https://acquirer.example/form/${attempt.order_id}` });

/** The gateway's side as a script: each Pay's paymentInfo runs the next step; every call is kept. */
function fakeGateway(steps: ((attempt: AttemptRow) => Promise<PaymentInfo>)[], reconcile: (orderId: string) => Promise<AttemptRow | undefined> = async () => undefined) {
  const paid: AttemptRow[] = [];
  const reconciled: string[] = [];
  const gateway: Pick<Gateway, 'paymentInfo' | 'reconcile' | 'abandon'> = {
    // No attempt of another way is open in these tests: nothing to end.
    abandon: async () => {
      throw new Error('no attempt of another way is open here');
    },
    paymentInfo: async (attempt) => {
      paid.push(attempt);
      const step = steps.shift();
      if (!step) throw new Error('the gateway was asked once more than the test expects');
      return step(attempt);
    },
    reconcile: async (orderId) => {
      reconciled.push(orderId);
      return reconcile(orderId);
    },
  };
  return { gateway, paid, reconciled };
}

/**
 * What the real gateway does with an attempt whose card form was lost: register.do went out and its answer never came,
 * so it ends the attempt, then says so.
 */
const abandon = (store: Store) => async (attempt: AttemptRow): Promise<PaymentInfo> => {
  await markRegisterStarted(store, attempt.order_id, store.now() + 20 * 60_000);
  await store.transaction((tx) => applyAcquirerOutcome(tx, attempt.order_id, { type: 'form.lost' }));
  throw new AttemptAbandoned();
};

describe('the rounds of a Pay', () => {
  test('one round: a new attempt, and the gateway answers what the page pays with', async () => {
    const { gateway, paid, reconciled } = fakeGateway([async (attempt) => infoOf(attempt)]);
    const answer = await pay(t.store, gateway, request());
    expect(paid).toHaveLength(1);
    expect(answer).toEqual({ kind: 'pay', info: infoOf(paid[0]!) });
    expect(reconciled).toEqual([]);
    expect(await attemptByOrder(t.store, paid[0]!.order_id)).toMatchObject({ status: 'created', email: 'payer@example.ru', amount_kopecks: 1_234_567 + 18_519 });
  });

  test('an attempt past its session time-out is reconciled first, and the second round pays a fresh attempt', async () => {
    const first = fakeGateway([async (attempt) => infoOf(attempt)]);
    const { info } = (await pay(t.store, first.gateway, request())) as { info: PaymentInfo };
    // Registered at the acquirer, with a session that ended a moment ago.
    await markRegisterStarted(t.store, info.orderId, t.clock.now() - 1);
    const expire = async (orderId: string) => t.store.transaction((tx) => applyAcquirerOutcome(tx, orderId, { type: 'session.expired' }));
    const second = fakeGateway([async (attempt) => infoOf(attempt)], expire);

    const answer = await pay(t.store, second.gateway, request());
    expect(second.reconciled).toEqual([info.orderId]);
    expect(second.paid).toHaveLength(1);
    expect(second.paid[0]!.order_id).not.toBe(info.orderId);
    expect(answer).toEqual({ kind: 'pay', info: infoOf(second.paid[0]!) });
    expect((await attemptsOfBill(t.store, 'demo-anon')).map((a) => a.status).sort()).toEqual(['created', 'declined']);
  });

  test('a reconcile that cannot reach the acquirer leaves the attempt, and the second round goes on with it', async () => {
    const first = fakeGateway([async (attempt) => infoOf(attempt)]);
    const { info } = (await pay(t.store, first.gateway, request())) as { info: PaymentInfo };
    await markRegisterStarted(t.store, info.orderId, t.clock.now() - 1);
    const unreachable = fakeGateway([async (attempt) => infoOf(attempt)], async () => {
      throw new Error('no answer');
    });

    const answer = await pay(t.store, unreachable.gateway, request());
    expect(unreachable.reconciled).toEqual([info.orderId]);
    expect(unreachable.paid.map((a) => a.order_id)).toEqual([info.orderId]);
    expect(answer).toEqual({ kind: 'pay', info });
  });

  test('an attempt abandoned at the acquirer is replaced once: the second round pays a fresh attempt', async () => {
    const { gateway, paid } = fakeGateway([abandon(t.store), async (attempt) => infoOf(attempt)]);
    const answer = await pay(t.store, gateway, request());
    expect(paid).toHaveLength(2);
    expect(paid[1]!.order_id).not.toBe(paid[0]!.order_id);
    expect(answer).toEqual({ kind: 'pay', info: infoOf(paid[1]!) });
    expect((await attemptsOfBill(t.store, 'demo-anon')).map((a) => a.status).sort()).toEqual(['created', 'declined']);
  });

  test('abandoned again in the second round: the acquirer is unavailable, and there is no third round', async () => {
    const { gateway, paid } = fakeGateway([abandon(t.store), abandon(t.store)]);
    await expect(pay(t.store, gateway, request())).rejects.toBeInstanceOf(AcquirerUnavailable);
    expect(paid).toHaveLength(2);
  });

  test('an acquirer that cannot be reached is unavailable at once, the attempt kept for the next Pay', async () => {
    const { gateway, paid } = fakeGateway([
      async () => {
        throw new AcquirerUnavailable(new Error('time-out'));
      },
    ]);
    await expect(pay(t.store, gateway, request())).rejects.toBeInstanceOf(AcquirerUnavailable);
    expect(await attemptByOrder(t.store, paid[0]!.order_id)).toMatchObject({ status: 'created' });
  });
});

describe('before any attempt', () => {
  const refused = async (overrides: Partial<PayRequest>, statusCode: number, message: string) => {
    const { gateway, paid } = fakeGateway([]);
    const error = await pay(t.store, gateway, request(overrides)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentRefused);
    expect(error).toMatchObject({ statusCode, message });
    expect(paid).toEqual([]);
  };

  test('an unknown bill, an unknown payment type, points not confirmed by a code', async () => {
    await refused({ billLink: 'no-such-bill' }, 404, 'Документ не найден');
    await refused({ cardTypeOid: 'demo-anon.NOPE' }, 400, 'Неизвестный способ оплаты');
    await refused({ billLink: 'demo-points', cardTypeOid: 'demo-points.ALL', points: 100 }, 403, 'Подтвердите списание баллов кодом из СМС');
    expect(await attemptsOfBill(t.store, 'demo-points')).toEqual([]);
  });

  test('points that cover the bill, confirmed by a code in this session, close it with no gateway at all', async () => {
    await insertVerification(t.store, { session_id: 'session-1', phone: '79990000003', purpose: 'use-points', cust_no: 'C-1002' });
    const { gateway, paid } = fakeGateway([]);
    const answer = await pay(t.store, gateway, request({ billLink: 'demo-cover', cardTypeOid: null, points: 1500 }));
    expect(answer).toMatchObject({ kind: 'closed' });
    expect(paid).toEqual([]);
    expect(await billByOid(t.store, 'demo-cover')).toMatchObject({ status: 'paid', paid_order_id: (answer as { orderId: string }).orderId });
  });
});
