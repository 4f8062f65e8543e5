import fs from 'node:fs';
import { SESSION_LIFE, sweepEndedSessions } from '../../../server/accounts/sessions';
import { buildApp, Client, countRows, openPage, provePhone, startServer, tempDirs, TEST_PASSWORD_COST, type TestServer } from '../helpers';
import { freshDatabase } from '../../support/testDatabase';
import { seedDemo } from '../../../server/sandbox/demoBills';
import { sessionById } from '../../../server/accounts/sessionQueries';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server.close());

const MINUTE = 60_000;
const poll = (c: Client) => c.post('/api/getResult/', { transactionID: 'none', billOID: 'demo-anon' });
const rows = (table: string, sessionId: string) => countRows(server.app, table, { session_id: sessionId });
const idOf = (c: Client) => c.cookie.replace('sid=', '');

describe('sessions expire (idle 30 min, absolute 24 h)', () => {
  test('30 idle minutes end a session: its POSTs are refused and its row is gone', async () => {
    const client = await openPage(server.app);
    expect((await poll(client)).statusCode).toBe(200);
    server.clock.advance(SESSION_LIFE.idleMs - 1);
    expect((await poll(client)).statusCode).toBe(200);
    server.clock.advance(SESSION_LIFE.idleMs);
    const late = await poll(client);
    expect(late.statusCode).toBe(403);
    expect(await sessionById(server.app.store, idOf(client))).toBeUndefined();
    // Opening the page again starts a new session.
    const old = client.cookie;
    await client.open();
    expect(client.cookie).not.toBe(old);
    expect((await poll(client)).statusCode).toBe(200);
  });

  test('use keeps a session alive, a page view as well as a POST; 24 hours end it whatever its use', async () => {
    const client = await openPage(server.app);
    const start = server.clock.now();
    let answer = 200;
    while (server.clock.now() - start < SESSION_LIFE.absoluteMs - 20 * MINUTE) {
      server.clock.advance(20 * MINUTE);
      answer = (await poll(client)).statusCode;
      if (answer !== 200) break;
    }
    expect(answer).toBe(200);
    server.clock.advance(10 * MINUTE);
    expect((await client.get('/pay/demo-anon')).statusCode).toBe(200);
    server.clock.advance(10 * MINUTE);
    expect((await poll(client)).statusCode).toBe(403);
  });

  test('the sweep deletes ended sessions with their proofs and free-call locks, and keeps live ones', async () => {
    const ended = await openPage(server.app, 'demo-reg');
    await provePhone(ended, '79990000002', 'forgot-password');
    expect((await ended.post('/ajax/realty/freeCallLock/', { phone: '79990000002' }, { form: true })).json().json.result).toBe(true);
    const endedId = idOf(ended);
    expect(await rows('phone_verifications', endedId)).toBe(1);
    expect(await rows('free_call_checks', endedId)).toBe(1);

    server.clock.advance(SESSION_LIFE.idleMs - MINUTE);
    const live = await openPage(server.app);
    server.clock.advance(MINUTE);

    expect(await sweepEndedSessions(server.app.store)).toBe(1);
    expect(await sessionById(server.app.store, endedId)).toBeUndefined();
    expect(await rows('phone_verifications', endedId)).toBe(0);
    expect(await rows('free_call_checks', endedId)).toBe(0);
    // The code sent stays (the per-phone caps count it), no longer tied to a session.
    expect(await countRows(server.app, 'sms_codes', { phone: '79990000002', session_id: null })).toBe(1);
    expect(await sessionById(server.app.store, idOf(live))).toBeDefined();
    expect((await poll(live)).statusCode).toBe(200);
    expect((await poll(ended)).statusCode).toBe(403);
  });

  test('the sweep runs on a timer of its own', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const { dir, distDir } = tempDirs();
    const database = await freshDatabase(dir);
    let t = Date.UTC(2026, 0, 15, 9, 0, 0);
    const app = await buildApp({ ...database, distDir, logger: false, now: () => t, rateLimitPerMinute: 0, passwordCost: TEST_PASSWORD_COST });
    // The sweep is a database call: let its answer arrive (setImmediate is not faked) before counting.
    const settle = async () => {
      for (let i = 0; i < 200; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    try {
      await seedDemo(app.store, TEST_PASSWORD_COST);
      await app.inject({ method: 'GET', url: '/pay/demo-anon' });
      const count = () => countRows(app, 'sessions');
      expect(await count()).toBe(1);
      t += SESSION_LIFE.idleMs;
      jest.advanceTimersByTime(SESSION_LIFE.sweepEveryMs - 1);
      await settle();
      expect(await count()).toBe(1);
      jest.advanceTimersByTime(1);
      let left = await count();
      for (let i = 0; i < 50 && left > 0; i++) {
        await settle();
        left = await count();
      }
      expect(left).toBe(0);
    } finally {
      await app.close();
      jest.useRealTimers();
      await database.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a session idle in this process but seen by another process meanwhile is still live', async () => {
    const client = await openPage(server.app);
    expect((await poll(client)).statusCode).toBe(200);
    // The other process writes the last-seen time; this one reads it on the next request.
    const second = await buildApp({ ...server.database, distDir: server.distDir, logger: false, now: server.clock.now, rateLimitPerMinute: 0, passwordCost: TEST_PASSWORD_COST, sweepEveryMs: 0, webhookWorker: false });
    const viaSecond = new Client(second);
    viaSecond.cookie = client.cookie;
    viaSecond.csrf = client.csrf;
    server.clock.advance(20 * MINUTE);
    expect((await poll(viaSecond)).statusCode).toBe(200);
    await second.close();
    server.clock.advance(20 * MINUTE);
    expect((await poll(client)).statusCode).toBe(200);
  });
});
