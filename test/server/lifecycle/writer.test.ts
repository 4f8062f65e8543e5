import fs from 'node:fs';
import { Migrator, type Kysely } from 'kysely';
import { markRegisterStarted, recordOrder } from '../../../server/acquirer/attempts';
import { billByOid } from '../../../server/billing/queries';
import { PAYMENT_STATUS, attemptChart, attemptEffects } from '../../../server/lifecycle/attempt';
import { BILL_COLUMNS, billEffects } from '../../../server/lifecycle/bill';
import { nextMove, storedStates } from '../../../server/lifecycle/chart';
import { attemptLifecycle, billLifecycle, refundLifecycle } from '../../../server/lifecycle/lifecycles';
import { REFUND_STATUS, refundChart, refundEffects } from '../../../server/lifecycle/refund';
import { migrations } from '../../../server/migrations';
import { appMetrics } from '../../../server/operations/metrics';
import { moveAttempt } from '../../../server/payments/moves';
import { applyAcquirerOutcome } from '../../../server/payments/outcome';
import { attemptByOrder, insertAttempt } from '../../../server/payments/queries';
import { seedDemo } from '../../../server/sandbox/demoBills';
import { connect } from '../../../server/store/engines';
import { openStore, type RootStore } from '../../../server/store/store';
import { parsePrometheusText, sampleValue } from '../../support/prometheusText';
import { freshDatabase, testEngine, type TestDatabase } from '../../support/testDatabase';
import { TEST_PASSWORD_COST, tempDirs } from '../helpers';

/*
 * The one way a status changes (server/lifecycle/writer.ts): the chart's next state, written with a compare-and-set on
 * the state it was read in; a lost race read again, never written over; a refused event never written, logged and
 * counted. And what the charts must hold for that: every state with its API words, every effect named once.
 */

describe('the charts', () => {
  test.each([
    ['attempt', attemptLifecycle, PAYMENT_STATUS, attemptEffects],
    ['refund', refundLifecycle, REFUND_STATUS, refundEffects],
    ['bill', billLifecycle, BILL_COLUMNS, billEffects],
  ] as const)('%s: every state it can be stored in has its API words, and its effects are the ones its moves name', (_name, lifecycle, words, effects) => {
    expect(storedStates(lifecycle.chart).sort()).toEqual(Object.keys(words).sort());
    expect(Object.keys(lifecycle.chart.implementations.actions).sort()).toEqual([...effects].sort());
    expect(lifecycle.effects).toBe(effects);
  });

  test('a move is the chart\'s: the target its guards pick and the effects it names; an event the state does not take, none', () => {
    const paid = { type: 'acquirer.paid', paidKopecks: 100, askedKopecks: 100, bill: 'paid', pointsThere: true } as const;
    expect(nextMove(attemptChart, 'registered', paid)).toEqual({
      from: 'registered',
      to: 'givingBack',
      event: paid,
      guard: 'bill paid already',
      effects: [{ type: 'refund it automatically', params: { why: 'bill-paid' } }, { type: 'announce the status', params: undefined }],
    });
    expect(nextMove(attemptChart, 'paid', paid)).toBeNull();
    expect(nextMove(attemptChart, 'created', { type: 'acquirer.registered' })).toBeNull();
    expect(nextMove(refundChart, 'pending', { type: 'acquirer.refunded' })).toBeNull();
  });
});

describe('the writer', () => {
  let dir: string;
  let database: TestDatabase;
  let store: RootStore;
  const logged: string[] = [];

  beforeEach(async () => {
    ({ dir } = tempDirs());
    database = await freshDatabase(dir);
    logged.length = 0;
    store = await openStore({ migrations, ...database, now: () => 1_000_000, log: (message) => void logged.push(message) });
    await seedDemo(store, TEST_PASSWORD_COST);
  });
  afterEach(async () => {
    await store.close();
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A registered attempt of the demo bill, as Pay and register.do leave it. */
  async function registered(orderId: string) {
    await insertAttempt(store, { order_id: orderId, bill_oid: 'demo-anon', card_type_oid: 'demo-anon.ALL', amount_kopecks: 100_00, commission_kopecks: 0, points_used: 0, email: null, user_oid: null, manager_id: null });
    expect(await markRegisterStarted(store, orderId, 2_000_000)).toBe(true);
    return recordOrder(store, orderId, { acquirer_order_id: `acquirer-${orderId}` });
  }

  const refusals = async (state: string, event: string) =>
    sampleValue(parsePrometheusText(await appMetrics(() => undefined).text()), 'checkout_lifecycle_refusals_total', { chart: 'attempt', state, event }) ?? 0;

  test('a new row is in its chart\'s first state, with the words the API reads it by', async () => {
    const attempt = await insertAttempt(store, { order_id: 'new', bill_oid: 'demo-anon', card_type_oid: 'demo-anon.ALL', amount_kopecks: 1, commission_kopecks: 0, points_used: 0, email: null, user_oid: null, manager_id: null });
    expect(attempt).toMatchObject({ state: 'created', status: 'created' });
    expect(await billByOid(store, 'demo-anon')).toMatchObject({ state: 'open', status: 'open', closed_as: null });
  });

  test('an event the state does not take is refused: nothing written, logged and counted', async () => {
    await registered('refused');
    const paid = await applyAcquirerOutcome(store, 'refused', { type: 'acquirer.paid', paidKopecks: 100_00 });
    expect(paid).toMatchObject({ state: 'paid', status: 'success' });
    const counted = await refusals('paid', 'acquirer.declined');
    const row = await attemptByOrder(store, 'refused');

    const answer = await moveAttempt(store, 'refused', { type: 'acquirer.declined', reason: 'declined' }, { action_code: 116 });
    expect(answer).toMatchObject({ kind: 'refused', state: 'paid' });
    expect(await attemptByOrder(store, 'refused')).toEqual(row);
    expect(logged).toEqual(['attempt refused: acquirer.declined refused in paid']);
    expect(await refusals('paid', 'acquirer.declined')).toBe(counted + 1);
  });

  test('a row moved by another process since it was read is read again and decided anew, never written over', async () => {
    await registered('raced');
    let reads = 0;
    const answer = await moveAttempt(store, 'raced', async (row, tx) => {
      reads += 1;
      // Between this read and the write, another process moves the row: the acquirer declined it.
      if (reads === 1) await moveAttempt(tx, 'raced', { type: 'acquirer.declined', reason: 'declined' });
      return { type: 'acquirer.paid', paidKopecks: row.amount_kopecks, askedKopecks: row.amount_kopecks, bill: 'unpaid', pointsThere: true };
    });
    expect(reads).toBe(2);
    expect(answer).toMatchObject({ kind: 'refused', state: 'declined' });
    expect(await attemptByOrder(store, 'raced')).toMatchObject({ state: 'declined', status: 'declined' });
    // The bill the deposit would have paid is still open: nothing of the lost move was written.
    expect(await billByOid(store, 'demo-anon')).toMatchObject({ state: 'open', paid_order_id: null });
  });

  if (testEngine() === 'postgres') {
    test('two processes move one attempt at once: one move is written, the other reads it and is refused', async () => {
      await registered('both');
      const other = await openStore({ migrations, ...database, now: () => 1_000_000, log: (message) => void logged.push(message) });
      try {
        const answers = await Promise.all([
          applyAcquirerOutcome(store, 'both', { type: 'acquirer.paid', paidKopecks: 100_00 }),
          applyAcquirerOutcome(other, 'both', { type: 'acquirer.declined', reason: 'declined' }),
        ]);
        const end = (await attemptByOrder(store, 'both'))!;
        expect(['paid', 'declined']).toContain(end.state);
        expect(answers.map((answer) => answer.state)).toEqual([end.state, end.state]);
        expect(logged).toEqual([`attempt both: ${end.state === 'paid' ? 'acquirer.declined' : 'acquirer.paid'} refused in ${end.state}`]);
        expect((await billByOid(store, 'demo-anon'))!.state).toBe(end.state === 'paid' ? 'paid' : 'open');
      } finally {
        await other.close();
      }
    });
  }
});

type Rows = Kysely<Record<string, Record<string, unknown>>>;

test('0012: every attempt, refund and bill gets the state its columns tell', async () => {
  const { dir } = tempDirs();
  const database = await freshDatabase(dir);
  const { db } = connect(database);
  expect((await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo('0011-payer-moments')).error).toBeUndefined();
  const rows = db as unknown as Rows;
  const bill = { product: 'realty', object_type: 'bill', purpose: 'Счет', sum_kopecks: 100_00, client_name: '', created_at: 1 };
  await rows.insertInto('bills').values([
    { ...bill, oid: 'b-open', link_id: 'l1', status: 'open' },
    { ...bill, oid: 'b-paid', link_id: 'l2', status: 'paid' },
    { ...bill, oid: 'b-cancelled', link_id: 'l3', status: 'open', closed_as: 'cancelled' },
    { ...bill, oid: 'b-expired', link_id: 'l4', status: 'open', closed_as: 'expired' },
  ]).execute();
  await rows.insertInto('payment_types').values({ oid: 'b-open.ALL', bill_oid: 'b-open', position: 0, code: 'ALL', name: 'Карта' }).execute();
  const attempt = { bill_oid: 'b-open', card_type_oid: 'b-open.ALL', amount_kopecks: 100_00, created_at: 2, updated_at: 2 };
  await rows.insertInto('payment_attempts').values([
    // One pending attempt per bill, way to pay and amounts: the pending ones differ in amount.
    { ...attempt, order_id: 'a-created', status: 'created', amount_kopecks: 100_01 },
    { ...attempt, order_id: 'a-registering', status: 'created', register_started_at: 3, amount_kopecks: 100_02 },
    { ...attempt, order_id: 'a-registered', status: 'created', register_started_at: 3, acquirer_order_id: 'acq-1', amount_kopecks: 100_03 },
    { ...attempt, order_id: 'a-paid', status: 'success' },
    { ...attempt, order_id: 'a-part', status: 'success' },
    { ...attempt, order_id: 'a-whole', status: 'success' },
    { ...attempt, order_id: 'a-points', status: 'success', amount_kopecks: 0 },
    { ...attempt, order_id: 'a-giving', status: 'refunded' },
    { ...attempt, order_id: 'a-given', status: 'refunded' },
    { ...attempt, order_id: 'a-declined', status: 'declined' },
  ]).execute();
  const refund = { kind: 'merchant', created_at: 4, reason: null, idempotency_key: null };
  await rows.insertInto('refunds').values([
    { ...refund, id: 'r-part', order_id: 'a-part', amount_kopecks: 30_00, status: 'succeeded' },
    { ...refund, id: 'r-whole-1', order_id: 'a-whole', amount_kopecks: 60_00, status: 'succeeded' },
    { ...refund, id: 'r-whole-2', order_id: 'a-whole', amount_kopecks: 40_00, status: 'succeeded' },
    { ...refund, id: 'r-failed', order_id: 'a-paid', amount_kopecks: 10_00, status: 'failed' },
    { ...refund, id: 'r-pending', order_id: 'a-paid', amount_kopecks: 10_00, status: 'pending' },
    { ...refund, id: 'r-sent', order_id: 'a-part', amount_kopecks: 10_00, status: 'pending', sent_at: 5 },
    { ...refund, id: 'r-giving', order_id: 'a-giving', amount_kopecks: 100_00, status: 'pending', kind: 'automatic' },
    { ...refund, id: 'r-given', order_id: 'a-given', amount_kopecks: 100_00, status: 'succeeded', kind: 'automatic' },
  ]).execute();
  await db.destroy();

  const store = await openStore({ migrations, ...database, now: () => 1_000 });
  try {
    const states = async (table: 'bills' | 'payment_attempts' | 'refunds', key: string) =>
      Object.fromEntries((await (store.db as unknown as Rows).selectFrom(table).select([key, 'state']).execute()).map((row) => [row[key], row.state]));
    expect(await states('bills', 'oid')).toEqual({ 'b-open': 'open', 'b-paid': 'paid', 'b-cancelled': 'cancelled', 'b-expired': 'expired' });
    expect(await states('payment_attempts', 'order_id')).toEqual({
      'a-created': 'created',
      'a-registering': 'registering',
      'a-registered': 'registered',
      'a-paid': 'paid',
      'a-part': 'partlyRefunded',
      'a-whole': 'fullyRefunded',
      'a-points': 'coveredByPoints',
      'a-giving': 'givingBack',
      'a-given': 'givenBack',
      'a-declined': 'declined',
    });
    expect(await states('refunds', 'id')).toEqual({
      'r-part': 'succeeded',
      'r-whole-1': 'succeeded',
      'r-whole-2': 'succeeded',
      'r-failed': 'failed',
      'r-pending': 'pending',
      'r-sent': 'sent',
      'r-giving': 'pending',
      'r-given': 'succeeded',
    });
  } finally {
    await store.close();
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
