import fs from 'node:fs';
import { openStore, type RootStore } from '../../../server/store/store';
import { databaseEnv, KILLED_PROCESS_ENV, killChildServers, startCheckoutServer, type ChildServer } from '../../support/childServer';
import { confirmByCard, freshBill, openTab, payBody, pollStatus, settledStatus, startCardPayment, type Tab } from '../../support/httpTab';
import { freshDatabase, type TestDatabase } from '../../support/testDatabase';
import { tempDirs } from '../helpers';
import { billByOid, typesOfBill } from '../../../server/billing/queries';
import { pointsBalance } from '../../../server/loyalty/ledger';
import { attemptsOfBill, ledgerOfCustomer } from '../../support/rows';
import { migrations } from '../../../server/migrations';

/*
 * Two server processes on one database, as a deployment behind a load balancer runs them (on PostgreSQL in the
 * `server · postgres` project; on SQLite two processes share the file). Every guarantee must hold across them.
 */
let dir: string;
let database: TestDatabase;
let a: ChildServer;
let b: ChildServer;
/** The test's own view of the database, to count what the servers wrote. */
let store: RootStore;
let distDir: string;

const start = () => startCheckoutServer(databaseEnv(database), distDir, { env: KILLED_PROCESS_ENV });

beforeAll(async () => {
  const dirs = tempDirs();
  dir = dirs.dir;
  distDir = dirs.distDir;
  database = await freshDatabase(dir);
  // Started together on an empty database: both migrate and seed, and the database ends up migrated and seeded once.
  [a, b] = await Promise.all([start(), start()]);
  store = await openStore({ migrations, ...database, now: Date.now });
}, 180_000);

afterAll(async () => {
  await store?.close();
  await killChildServers();
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('both processes started on one empty database: the demo bills are seeded once', async () => {
  expect(await typesOfBill(store, 'demo-anon')).toHaveLength(3);
  expect(await ledgerOfCustomer(store, 'C-1001')).toEqual([{ delta: 4500, reason: 'demo credit', order_id: null }]);
});

test('20 concurrent Pays for one bill split across both processes make one attempt', async () => {
  const tab = await openTab(a.base);
  const bill = await freshBill(a.base);
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? tab.on(b.base) : tab).post('/api/getPaymentUrl/', payBody(bill))));
  expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
  const orderIds = new Set(await Promise.all(answers.map(async (answer) => ((await answer.json()) as { info: { orderId: string } }).info.orderId)));
  expect(orderIds.size).toBe(1);
  expect(await attemptsOfBill(store, bill)).toHaveLength(1);
});

test("a payment settled through one process is success on the other's next poll, and its sign-in works on both", async () => {
  const tab = await openTab(a.base);
  const bill = await freshBill(b.base);
  const orderId = await startCardPayment(tab.on(b.base), bill);
  expect(await pollStatus(tab, orderId, bill)).toEqual({ success: true, status: 'created', objectOID: bill });

  const paid = await confirmByCard(a.base, orderId);
  expect(paid.headers.get('location')).toContain('/success?');
  expect(await settledStatus(tab.on(b.base), orderId, bill)).toMatchObject({ success: true, status: 'success', objectOID: bill });
});

test('a session renamed by a sign-in on one process is refused under its old id on the other', async () => {
  const tab = await openTab(a.base, 'demo-reg');
  const signIn = await fetch(`${a.base}/ajax/realty/login/`, {
    method: 'POST',
    headers: { ...tab.headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'login=79990000002&phone=79990000002&password=demo-pass&captcha=',
  });
  expect(signIn.status).toBe(200);
  const renamed = signIn.headers.get('set-cookie')!.split(';')[0]!;
  expect(renamed).not.toBe(tab.headers.cookie);
  // The old id (a planted one, in a fixation attack) opens nothing on the other process, the new one does.
  expect((await tab.on(b.base).post('/ajax/realty/checkUser/', {})).status).toBe(403);
  expect((await pollStatus(tab.on(b.base), 'no-such-order', 'demo-reg')).success).toBe(false);
  const signedIn = { ...tab.headers, cookie: renamed };
  const check = await fetch(`${b.base}/ajax/realty/checkUser/`, { method: 'POST', headers: signedIn, body: '{}' });
  expect(check.status).toBe(200);
  expect(((await check.json()) as { success: boolean }).success).toBe(true);
});

test('a logout through one process ends the session for the other at once', async () => {
  const tab = await openTab(a.base);
  expect((await pollStatus(tab.on(b.base), 'no-such-order', 'demo-anon')).success).toBe(true);
  const logout = await tab.post('/ajax/logout', {});
  expect(logout.status).toBe(200);
  // The other process has seen this session a moment ago, and still refuses it now.
  expect((await tab.on(b.base).post('/ajax/realty/checkUser/', {})).status).toBe(403);
  expect((await tab.on(b.base).post('/api/getResult/', { transactionID: 'no-such-order', billOID: 'demo-anon' })).status).toBe(403);
});

test('points are written off once when the acquirer confirms twice through each process', async () => {
  const bill = await freshBill(a.base, 'demo-points');
  const { client_phone: phone, cust_no: custNo } = (await billByOid(store, bill))!;
  const tab = await openTab(a.base, bill);
  // The customer's phone proven by a use-points code: sent through one process, entered through the other.
  // As the page does: no phone named, the server sends the code to the bill's (a sandbox copy's link is its objectOID).
  const sent = await tab.post('/api/send-sms/', { phone: null, objectOID: bill, captchaVerified: false, custNo, usePoints: true, captcha: null, purpose: 'use-points' });
  expect(sent.status).toBe(200);
  const sms = (await (await fetch(`${b.base}/sandbox/sms?phone=${phone}`)).json()) as { messages: { code: string | null }[] };
  const checked = await tab.on(b.base).post('/api/check-code/', { code: sms.messages[0]!.code, phone: null, objectOID: bill, custNo, usePoints: true, purpose: 'use-points' });
  expect(checked.status).toBe(200);

  const orderId = await startCardPayment(tab.on(b.base), bill, 1000);
  const confirmations = await Promise.all([confirmByCard(a.base, orderId), confirmByCard(b.base, orderId), confirmByCard(a.base, orderId), confirmByCard(b.base, orderId)]);
  expect(confirmations.map((c) => c.status)).toEqual([303, 303, 303, 303]);
  expect(confirmations.every((c) => c.headers.get('location')!.includes('/success?'))).toBe(true);
  expect((await settledStatus(tab, orderId, bill)).status).toBe('success');

  expect(await ledgerOfCustomer(store, custNo!)).toEqual([
    { delta: 4500, reason: 'demo credit', order_id: null },
    { delta: -1000, reason: 'payment', order_id: orderId },
  ]);
  expect(await pointsBalance(store, custNo!)).toBe(3500);
});

test('SIGKILL of one process in the middle of payments loses nothing: the other completes every one', async () => {
  const victim = await start();
  const tab = await openTab(victim.base);
  const orders: { bill: string; orderId: string }[] = [];
  for (let i = 0; i < 6; i++) {
    const bill = await freshBill(victim.base);
    orders.push({ bill, orderId: await startCardPayment(tab, bill) });
  }

  // Confirmations for every order in flight on the victim, which is killed the moment the first one is answered.
  const confirmed = new Set<string>();
  const inFlight = orders.map(({ orderId }) =>
    confirmByCard(victim.base, orderId).then(
      (answer) => {
        if (answer.status === 303 && answer.headers.get('location')!.includes('/success?')) confirmed.add(orderId);
        if (!victim.child.killed) victim.child.kill('SIGKILL');
      },
      () => {},
    ),
  );
  await Promise.all(inFlight);
  await victim.stop('SIGKILL');
  expect(victim.child.signalCode).toBe('SIGKILL');

  const survivor: Tab = tab.on(b.base);
  // A confirmation the victim answered was committed at the acquirer; the product hears of it by the callback or, when
  // the callback went to the dead process, by asking the acquirer on a poll. One it never answered either was or was
  // not, never half; the payer then confirms it again on the survivor.
  const before = await Promise.all(orders.map(({ bill, orderId }) => pollStatus(survivor, orderId, bill)));
  expect(before.map((answer) => answer.status)).toEqual(orders.map(() => expect.stringMatching(/^(created|success)$/)));
  const unanswered = orders.filter(({ orderId }) => !confirmed.has(orderId));
  const confirmedAgain = await Promise.all(unanswered.map(async ({ orderId }) => (await confirmByCard(b.base, orderId)).status));
  expect(confirmedAgain).toEqual(unanswered.map(() => 303));
  // Each order is settled on its own (the survivor asks the acquirer about an order at most every few seconds), so all
  // six are checked at once.
  await Promise.all(
    orders.map(async ({ bill, orderId }) => {
      // The dead process may have been asking the acquirer about it: its lease on the order, taken for a read of up to
      // three calls, ends after three calls' time-outs and a second (10 s); the survivor asks once it has.
      expect(await settledStatus(survivor, orderId, bill, 30_000)).toMatchObject({ success: true, status: 'success', objectOID: bill });
      expect(await attemptsOfBill(store, bill)).toEqual([expect.objectContaining({ order_id: orderId, status: 'success' })]);
      expect((await billByOid(store, bill))!).toMatchObject({ status: 'paid', paid_order_id: orderId });
    }),
  );
}, 120_000);
