import { buildApp } from '../server/app';
import { seedDemo } from '../server/sandbox/demoBills';
import { openStore } from '../server/store/store';
import { fuzzRoutes, randomBody } from '../test/server/fuzzBodies';
import { guessCodes } from '../test/support/codeGuessing';
import { confirmByCard, freshBill, openTab, payBody, settledStatus, startCardPayment } from '../test/support/httpTab';
import { databaseEnv } from '../test/support/childServer';
import { startCheckoutServer, type ChildServer } from './processes';
import { fakeTextsOf } from '../server/sandbox/smsruQueries';
import { injectFetch } from '../test/support/injectFetch';
import { attemptsOfBill } from '../test/support/rows';
import { migrations } from '../server/migrations';

/** A database for one figure: a SQLite file, or a PostgreSQL database of the bench's cluster. */
export interface BenchDatabase {
  databaseUrl: string | null;
  databasePath: string;
}

/**
 * 10,000 wrong codes against one phone, by an attacker who solves every captcha and asks for a new code whenever
 * the rules allow (test/support/codeGuessing.ts, the attacker of test/server/accounts/bruteforce.test.ts): an
 * in-process server on a fake clock, so the waits the server demands pass instantly.
 */
export async function otpBruteForce(
  database: BenchDatabase,
  distDir: string,
  guesses = 10_000,
): Promise<{ sent: number; accepted: number; evaluated: number; codesSent: number }> {
  let t = Date.UTC(2026, 0, 15, 9);
  const built: { app?: Awaited<ReturnType<typeof buildApp>> } = {};
  // The sandbox's SMS.ru fake is this app, reached through inject (it does not listen).
  const app = await buildApp({ ...database, distDir, logger: false, rateLimitPerMinute: 0, now: () => t, passwordCost: 1024, smsruFetch: injectFetch(() => built.app!), smsWorker: false });
  built.app = app;
  await seedDemo(app.store, 1024);
  const phone = '79990004455';
  try {
    let cookie = '';
    let csrf = '';
    // After a wait of 30 idle minutes or more the session has ended, so the attacker opens the page again.
    const openPage = async () => {
      const page = await app.inject({ method: 'GET', url: '/pay/demo-anon' });
      cookie = `sid=${page.cookies.find((c) => c.name === 'sid')!.value}`;
      csrf = /<meta name="?csrf-token"? content="([^"]+)"/.exec(page.body)![1]!;
    };
    await openPage();
    const post = (url: string, body: unknown) =>
      app.inject({ method: 'POST', url, headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    const lastCode = async () => /Код подтверждения: (\d{4})/.exec((await fakeTextsOf(app.store, phone, 1))[0]?.text ?? '')?.[1] ?? null;
    const { accepted, evaluated, codesSent } = await guessCodes({ post, lastCode, wait: (ms) => void (t += ms), reopen: openPage }, phone, guesses);
    return { sent: guesses, accepted, evaluated, codesSent };
  } finally {
    await app.close();
  }
}

/** Random bodies over real HTTP to every POST route; counts the 500s. */
export async function fuzzBodies(server: ChildServer, count = 1200): Promise<{ sent: number; status500: number }> {
  const tab = await openTab(server.base, 'demo-points');
  let status500 = 0;
  for (let i = 0; i < count; i++) {
    const route = fuzzRoutes[i % fuzzRoutes.length]!;
    const { payload, contentType } = randomBody(route.template);
    const headers: Record<string, string> = { cookie: tab.headers.cookie!, 'x-csrf-token': tab.headers['x-csrf-token']! };
    if (contentType) headers['content-type'] = contentType;
    const answer = await fetch(`${server.base}${route.url}`, { method: 'POST', headers, body: payload, redirect: 'manual' });
    await answer.arrayBuffer();
    if (answer.status >= 500) status500++;
  }
  return { sent: count, status500 };
}

/**
 * Two server processes on one database (as a scaled deployment runs them), 20 simultaneous Pay presses for one bill
 * from one tab, half through each process; then a SIGKILL during pending payments, a restart on the same database,
 * and each payment completed through the sandbox acquirer's card form.
 */
export async function concurrencyAndCrash(
  database: BenchDatabase,
  distDir: string,
): Promise<{
  concurrentPayAttempts: { requests: number; attemptsCreated: number };
  crashRecovery: { pending: number; paymentsLost: number };
}> {
  const env = databaseEnv(database);
  const servers: ChildServer[] = [];
  const store = await openStore({ migrations, ...database, now: Date.now });
  try {
    const [first, second] = await Promise.all([startCheckoutServer(env, distDir), startCheckoutServer(env, distDir)]);
    servers.push(first, second);

    const tab = await openTab(first.base);
    const bill = await freshBill(first.base);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? tab.on(second.base) : tab).post('/api/getPaymentUrl/', payBody(bill))));
    if (answers.some((a) => a.status !== 200)) throw new Error(`concurrent Pay answered ${answers.map((a) => a.status).join(',')}`);
    const concurrentPayAttempts = { requests: answers.length, attemptsCreated: (await attemptsOfBill(store, bill)).length };

    const pending: { bill: string; orderId: string }[] = [];
    for (let i = 0; i < 5; i++) {
      const oid = await freshBill(first.base);
      pending.push({ bill: oid, orderId: await startCardPayment(tab, oid) });
    }
    await second.stop();
    await first.stop('SIGKILL');
    const restarted = await startCheckoutServer(env, distDir);
    servers.push(restarted);

    let paymentsLost = 0;
    for (const { bill: oid, orderId } of pending) {
      const paid = await confirmByCard(restarted.base, orderId);
      // The acquirer's callback went to the killed process's address: the restarted one learns the outcome by asking
      // the acquirer on the poll (a few seconds), as a payer's result page would.
      const { status } = await settledStatus(tab.on(restarted.base), orderId, oid);
      if (paid.status !== 303 || status !== 'success') paymentsLost++;
    }
    return { concurrentPayAttempts, crashRecovery: { pending: pending.length, paymentsLost } };
  } finally {
    await store.close();
    for (const server of servers) await server.stop('SIGKILL');
  }
}
