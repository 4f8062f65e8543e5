import { databaseEnv, exitOf, startCheckoutServer, until, type ChildServer } from '../../support/childServer';
import { freshBill, openTab, payBody, rbsFaultAt } from '../../support/httpTab';
import { processPlace } from '../helpers';
import { migrations } from '../../../server/migrations';
import { attemptByOrder } from '../../../server/payments/queries';
import { openStore } from '../../../server/store/store';

/*
 * A deploy's SIGTERM, against the real server as its own process (`server/main.ts`): a Pay held at the acquirer (the
 * sandbox fake's 'register-slow' answers after half the client's 4-second time-out) is in flight when the signal comes.
 */
const place = processPlace();

/** A Pay's answer: its status (0: the connection broke) and body. */
interface PayAnswer {
  status: number;
  body: { success: boolean; info?: { orderId: string; formUrl: string } };
}

const start = () => startCheckoutServer(databaseEnv(place.database), place.distDir, { env: { ACQUIRER_TIMEOUT_MS: '4000', SHUTDOWN_TIMEOUT_MS: '10000' } });

/** A Pay under way whose register.do the sandbox's acquirer is holding back right now: its answer, still to come. */
async function payHeldAtTheAcquirer(server: ChildServer): Promise<{ answer: Promise<PayAnswer>; answered: () => boolean }> {
  const tab = await openTab(server.base);
  const bill = await freshBill(server.base);
  await rbsFaultAt(server.base, 'register-slow');
  let answered = false;
  const paying = tab.post('/api/getPaymentUrl/', payBody(bill)).finally(() => (answered = true));
  // Settled either way, so a refused request never goes unhandled while the test waits on something else.
  const answer = paying.then(
    async (response): Promise<PayAnswer> => ({ status: response.status, body: (await response.json()) as PayAnswer['body'] }),
    (): PayAnswer => ({ status: 0, body: { success: false } }),
  );
  await until(async () => {
    const held = (await (await fetch(`${server.base}/sandbox/rbs/held`)).json()) as { held: Record<string, number> };
    return Object.keys(held.held).length > 0;
  }, 'the acquirer to hold the Pay');
  // Not awaited here: the Pay is still under way (an async function would wait for a promise it returns).
  return { answer, answered: () => answered };
}

const refusesConnections = (base: string) =>
  fetch(`${base}/health/live`).then(
    () => false,
    () => true,
  );

test('SIGTERM during a Pay held at the acquirer: no new connection is accepted, the payer gets the answer, the process exits 0', async () => {
  const server = await start();
  const exit = exitOf(server.child);
  const { answer, answered } = await payHeldAtTheAcquirer(server);

  server.child.kill('SIGTERM');
  await until(() => /SIGTERM: no longer accepting connections/.test(server.output()), 'the listener to close');
  expect(answered()).toBe(false);
  expect(await refusesConnections(server.base)).toBe(true);

  // The Pay went on: the acquirer's late answer reached it and the payer got the card form.
  const paid = await answer;
  expect(paid.status).toBe(200);
  expect(paid.body).toMatchObject({ success: true, info: { orderId: expect.any(String), formUrl: expect.stringContaining('/sandbox/acquirer/') } });
  // Within SHUTDOWN_TIMEOUT_MS (past it the process exits 1), after the workers and the database closed.
  expect(await exit).toEqual({ code: 0, signal: null });
  expect(server.output()).toContain('Stopped: every request answered, the workers and the database closed.');

  // What the Pay did is in the database, its claim on the attempt given back: another process can take it from here.
  const store = await openStore({ migrations, ...place.database, now: Date.now });
  try {
    expect(await attemptByOrder(store, paid.body.info!.orderId)).toMatchObject({ status: 'created', form_url: paid.body.info!.formUrl, lease_until: null });
  } finally {
    await store.close();
  }
});

test('a second signal exits at once, without waiting for the Pay in flight', async () => {
  const server = await start();
  const exit = exitOf(server.child);
  const { answer } = await payHeldAtTheAcquirer(server);

  server.child.kill('SIGTERM');
  await until(() => /SIGTERM: no longer accepting connections/.test(server.output()), 'the listener to close');
  server.child.kill('SIGTERM');
  // 128 + SIGTERM's number, as a shell reports a process a signal ended.
  expect(await exit).toEqual({ code: 143, signal: null });
  expect(server.output()).toContain('SIGTERM again: exiting now');
  // The held Pay never got its answer: the process was gone first.
  expect((await answer).status).toBe(0);
});
