import fs from 'node:fs';
import { killChildServers, databaseEnv, startCheckoutServer } from '../support/childServer';
import { confirmByCard, openTab, payBody, pollStatus } from '../support/httpTab';
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
  // With PORT=0 the return URLs name the port actually bound.
  expect(info.formUrl).toBe(`${first.base.replace('127.0.0.1', 'localhost')}/sandbox/acquirer/${info.orderId}`);

  await first.stop('SIGKILL');
  expect(first.child.signalCode).toBe('SIGKILL');

  const second = await startCheckoutServer(env, distDir);
  const again = tab.on(second.base);
  // The session and the attempt both survived.
  expect(await pollStatus(again, info.orderId, 'demo-anon')).toEqual({ success: true, status: 'created', objectOID: 'demo-anon' });

  expect((await fetch(`${second.base}/sandbox/acquirer/${info.orderId}`)).status).toBe(200);
  const paid = await confirmByCard(second.base, info.orderId);
  expect(paid.status).toBe(303);
  expect(paid.headers.get('location')).toContain(`/success?orderId=${info.orderId}&billOid=demo-anon`);
  expect(await pollStatus(again, info.orderId, 'demo-anon')).toMatchObject({ success: true, status: 'success', objectOID: 'demo-anon' });

  await second.stop();
  await database.drop();
  fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);
