import fs from 'node:fs';
import { openStore } from '../../../server/store/store';
import { killChildServers, databaseEnv, KILLED_PROCESS_ENV, startCheckoutServer } from '../../support/childServer';
import { acquirerOrderOf, confirmByCard, openTab, payBody, pollStatus, settledStatus } from '../../support/httpTab';
import { freshDatabase } from '../../support/testDatabase';
import { tempDirs } from '../helpers';
import { attemptByOrder } from '../../../server/payments/queries';
import { attemptsOfBill } from '../../support/rows';
import { migrations } from '../../../server/migrations';

afterAll(() => killChildServers());

const start = (env: ReturnType<typeof databaseEnv>, distDir: string) => startCheckoutServer(env, distDir, { env: KILLED_PROCESS_ENV });

test('a pending payment survives SIGKILL: after a restart it completes and is reported', async () => {
  const { dir, distDir } = tempDirs();
  const database = await freshDatabase(dir);
  const env = databaseEnv(database);

  const first = await start(env, distDir);
  const tab = await openTab(first.base);
  const started = await tab.post('/api/getPaymentUrl/', payBody('demo-anon'));
  expect(started.status).toBe(200);
  const { info } = (await started.json()) as { info: { orderId: string; formUrl: string } };
  // With PORT=0 the return URLs (and the sandbox acquirer's own address) name the port actually bound.
  const acquirerOrder = await acquirerOrderOf(first.base, info.orderId);
  expect(info.formUrl).toBe(`${first.base.replace('127.0.0.1', 'localhost')}/sandbox/acquirer/${acquirerOrder}`);

  await first.stop('SIGKILL');
  expect(first.child.signalCode).toBe('SIGKILL');

  const second = await start(env, distDir);
  const again = tab.on(second.base);
  // The session and the attempt both survived.
  expect(await pollStatus(again, info.orderId, 'demo-anon')).toEqual({ success: true, status: 'created', objectOID: 'demo-anon' });

  expect((await fetch(`${second.base}/sandbox/acquirer/${acquirerOrder}`)).status).toBe(200);
  const paid = await confirmByCard(second.base, info.orderId);
  expect(paid.status).toBe(303);
  // Back to our result page with the acquirer's orderId appended: the page polls with that id.
  expect(paid.headers.get('location')).toBe(`${first.base.replace('127.0.0.1', 'localhost')}/success?billOid=demo-anon&orderId=${acquirerOrder}`);
  // The callback went to the killed process's address and was lost: the poll asks the acquirer and learns it.
  expect(await settledStatus(again, acquirerOrder, 'demo-anon')).toMatchObject({ success: true, status: 'success', objectOID: 'demo-anon' });

  await second.stop();
  await database.drop();
  fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

test('SIGKILL between register.do and its answer: after a restart the attempt is resolved by orderNumber, never a second order', async () => {
  const { dir, distDir } = tempDirs();
  const database = await freshDatabase(dir);
  const env = databaseEnv(database);
  const store = await openStore({ migrations, ...database, now: Date.now });
  try {
    const first = await start(env, distDir);
    const tab = await openTab(first.base);
    // The fake makes the order, then holds its answer past the client's time-out: the process dies meanwhile.
    await fetch(`${first.base}/sandbox/rbs/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ fault: 'register-timeout', on: true }) });
    const pending = tab.post('/api/getPaymentUrl/', payBody('demo-anon', 'SBP')).catch(() => null);
    for (let i = 0; i < 100 && (await store.db.selectFrom('sandbox_rbs_orders').select('order_id').execute()).length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    await first.stop('SIGKILL');
    await pending;
    const [attempt] = await attemptsOfBill(store, 'demo-anon');
    expect(attempt).toMatchObject({ status: 'created', acquirer_order_id: null });
    expect(attempt!.register_started_at).not.toBeNull();

    const second = await start(env, distDir);
    const again = await tab.on(second.base).post('/api/getPaymentUrl/', payBody('demo-anon', 'SBP'));
    expect(again.status).toBe(200);
    const { info } = (await again.json()) as { info: { orderId: string; data: { qrcId: string } } };
    expect(info.orderId).toBe(attempt!.order_id);
    const orders = await store.db.selectFrom('sandbox_rbs_orders').select(['order_id', 'order_number']).execute();
    expect(orders).toEqual([{ order_id: (await attemptByOrder(store, info.orderId))!.acquirer_order_id, order_number: info.orderId }]);
    await second.stop();
  } finally {
    await store.close();
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
