import fs from 'node:fs';
import { sql } from 'kysely';
import type { ChangeFeed, FeedEvent } from '../../../server/store/changeFeed';
import { openStore, type RootStore, type Store } from '../../../server/store/store';
import { databaseEnv, killChildServers, startCheckoutServer } from '../../support/childServer';
import { confirmByCard, freshBill, openTab, startCardPayment } from '../../support/httpTab';
import { freshDatabase, testEngine, type TestDatabase } from '../../support/testDatabase';
import { tempDirs } from '../helpers';
import { insertBill, insertType } from '../../../server/billing/queries';
import { insertAttempt } from '../../../server/payments/queries';
import { finishAttempt } from '../../support/finishAttempt';
import { migrations } from '../../../server/migrations';

let dir: string;
let distDir: string;
let database: TestDatabase;
let store: RootStore;
/** What the store logged (the feed's reconnects). */
let logged: string[];

beforeEach(async () => {
  ({ dir, distDir } = tempDirs());
  database = await freshDatabase(dir);
  logged = [];
  store = await openStore({ migrations, ...database, now: Date.now, log: (message) => void logged.push(message) });
});
afterEach(async () => {
  await store.close();
  await killChildServers();
  await database.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Everything a subscriber hears, and a way to wait for the event it expects. */
function listen(feed: ChangeFeed) {
  const heard: FeedEvent[] = [];
  const waiters: { match: (event: FeedEvent) => boolean; resolve: (event: FeedEvent) => void }[] = [];
  const unsubscribe = feed.subscribe((event) => {
    heard.push(event);
    for (const waiter of waiters.filter((w) => w.match(event))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(event);
    }
  });
  const next = (match: (event: FeedEvent) => boolean, ms = 10_000) =>
    new Promise<FeedEvent>((resolve, reject) => {
      const found = heard.find(match);
      if (found) return resolve(found);
      const timer = setTimeout(() => reject(new Error(`not heard within ${ms} ms; heard ${JSON.stringify(heard)}`)), ms);
      waiters.push({ match, resolve: (event) => (clearTimeout(timer), resolve(event)) });
    });
  return { heard, next, unsubscribe };
}

const settled = (orderId: string) => (event: FeedEvent) => event.kind === 'attempt-status' && event.orderId === orderId;

/** A bill with one payment type and a pending attempt on it, written straight through the store. */
async function pendingAttempt(tx: Store, orderId: string) {
  const bill = `bill-${orderId}`;
  await insertBill(tx, {
    oid: bill, link_id: bill, product: 'realty', object_type: 'bill', purpose: 'test', sum_kopecks: 100_00, client_name: '', client_phone: null, client_email: null,
    bill_email: null, cust_no: null, no_reg: 1, points_enabled: 0, useful_points_limit: 0, status: 'open', copied_from: null,
  });
  await insertType(tx, { oid: `${bill}.ALL`, bill_oid: bill, position: 0, code: 'ALL', name: 'Карта', commission_kopecks: 0, show_aggregator_offer: 0, show_executer_offer: 0 });
  await insertAttempt(tx, { order_id: orderId, bill_oid: bill, card_type_oid: `${bill}.ALL`, amount_kopecks: 100_00, commission_kopecks: 0, points_used: 0, email: null, user_oid: null, manager_id: null });
  return bill;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('a status change is heard once, after its transaction commits; a rolled-back one is never heard', async () => {
  const subscriber = listen(store.feed);
  await store.feed.ready();

  const bill = await store.transaction(async (tx) => {
    const oid = await pendingAttempt(tx, 'order-1');
    expect(await finishAttempt(tx, 'order-1', 'success')).toMatchObject({ order_id: 'order-1', status: 'success' });
    await pause(50);
    // Not before the commit: a waiter woken now would read the old status.
    expect(subscriber.heard).toEqual([]);
    return oid;
  });
  expect(await subscriber.next(settled('order-1'))).toEqual({ kind: 'attempt-status', orderId: 'order-1', billOid: bill, status: 'success' });

  await expect(
    store.transaction(async (tx) => {
      await pendingAttempt(tx, 'order-2');
      await finishAttempt(tx, 'order-2', 'declined');
      throw new Error('rolled back');
    }),
  ).rejects.toThrow('rolled back');
  // A change heard after this one proves the rolled-back one would have arrived by now.
  await store.transaction(async (tx) => {
    await pendingAttempt(tx, 'order-3');
    await finishAttempt(tx, 'order-3', 'declined');
  });
  await subscriber.next(settled('order-3'));
  expect(subscriber.heard.filter((event) => event.kind === 'attempt-status').map((event) => event.kind === 'attempt-status' && event.orderId)).toEqual(['order-1', 'order-3']);

  // A second finish of the same attempt changes nothing and announces nothing.
  expect(await finishAttempt(store, 'order-1', 'declined')).toBeUndefined();
  subscriber.unsubscribe();
});

if (testEngine() === 'postgres') {
  test('a payment settled by another server process is heard in this one', async () => {
    const subscriber = listen(store.feed);
    await store.feed.ready();
    const server = await startCheckoutServer(databaseEnv(database), distDir);
    const bill = await freshBill(server.base);
    const orderId = await startCardPayment(await openTab(server.base), bill);
    expect((await confirmByCard(server.base, orderId)).status).toBe(303);
    expect(await subscriber.next(settled(orderId))).toEqual({ kind: 'attempt-status', orderId, billOid: bill, status: 'success' });
  }, 60_000);

  test('when the listening connection drops, the feed reconnects and tells subscribers to re-read', async () => {
    const subscriber = listen(store.feed);
    await store.feed.ready();
    const { rows } = await sql<{ pid: number }>`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN checkout_changes'`.execute(store.db);
    expect(rows).toHaveLength(1);
    await sql`SELECT pg_terminate_backend(${rows[0]!.pid})`.execute(store.db);

    await subscriber.next((event) => event.kind === 'resync');
    expect(logged).toContain('change feed: listening connection lost, reconnecting');
    await store.transaction(async (tx) => {
      await pendingAttempt(tx, 'after-reconnect');
      await finishAttempt(tx, 'after-reconnect', 'success');
    });
    await subscriber.next(settled('after-reconnect'));
  });
} else {
  test('on SQLite the feed is in-process: the server that settles a payment hears it at once', async () => {
    const subscriber = listen(store.feed);
    await store.transaction((tx) => pendingAttempt(tx, 'order-4'));
    await finishAttempt(store, 'order-4', 'declined');
    // Synchronously after the commit, before any other work of this process can run.
    expect(subscriber.heard).toEqual([{ kind: 'attempt-status', orderId: 'order-4', billOid: 'bill-order-4', status: 'declined' }]);
  });
}
