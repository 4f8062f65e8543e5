import fs from 'node:fs';
import { killChildServers, databaseEnv, startCheckoutServer } from '../support/childServer';
import { acquirerOrderOf, confirmByCard, openTab, payBody, pollStatus, settledStatus } from '../support/httpTab';
import { freshDatabase } from '../support/testDatabase';
import { tempDirs } from './helpers';

afterAll(() => killChildServers());

test('a pending payment survives SIGKILL: after a restart it completes and is reported', async () => {
  const { dir, distDir } = tempDirs();
  const database = await freshDatabase(dir);
  const env = databaseEnv(database);

  const first = await startCheckoutServer(env, distDir);
  const tab = await openTab(first.base);
  const started = await tab.post('/api/getPaymentUrl/', payBody('demo-anon'));
  expect(started.status).toBe(200);
  const { info } = (await started.json()) as { info: { orderId: string; formUrl: string } };
  // With PORT=0 the return URLs (and the sandbox acquirer's own address) name the port actually bound.
  const acquirerOrder = await acquirerOrderOf(first.base, info.orderId);
  expect(info.formUrl).toBe(`${first.base.replace('127.0.0.1', 'localhost')}/sandbox/acquirer/${acquirerOrder}`);

  await first.stop('SIGKILL');
  expect(first.child.signalCode).toBe('SIGKILL');

  const second = await startCheckoutServer(env, distDir);
  const again = tab.on(second.base);
  // The session and the attempt both survived.
  expect(await pollStatus(again, info.orderId, 'demo-anon')).toEqual({ success: true, status: 'created', objectOID: 'demo-anon' });

  expect((await fetch(`${second.base}/sandbox/acquirer/${acquirerOrder}`)).status).toBe(200);
  const paid = await confirmByCard(second.base, info.orderId);
  expect(paid.status).toBe(303);
  // Back to our result page with the acquirer's orderId appended: the page polls with that id.
  expect(paid.headers.get('location')).toBe(`${first.base.replace('127.0.0.1', 'localhost')}/success?billOid=demo-anon&orderId=${acquirerOrder}`);
  // The callback went to the killed process's address and was lost: the poll asks the acquirer and learns it.
  expect(await settledStatus(again, acquirerOrder, 'demo-anon')).toEqual({ success: true, status: 'success', objectOID: 'demo-anon' });

  await second.stop();
  await database.drop();
  fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);
