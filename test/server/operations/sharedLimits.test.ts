import type { FastifyInstance } from 'fastify';
import { migrations } from '../../../server/migrations';
import { countHit, forgetEndedWindows } from '../../../server/operations/limits';
import { openStore } from '../../../server/store/store';
import { databaseEnv, startCheckoutServer, type ChildServer } from '../../support/childServer';
import { openTab, type Tab } from '../../support/httpTab';
import { DEV_CAPTCHA_TOKEN } from '../../../server/accounts/captcha';
import { SMS_CALLBACK_LIMIT_PER_MINUTE } from '../../../server/accounts/smsCallback';
import { buildApp, countRows, merchantKey, openPage, processPlace, startServer, startStore, testEngine, TEST_PASSWORD_COST } from '../helpers';

/*
 * The per-client limits (the global one and each route's: here the sign-in's 10 a minute). On PostgreSQL every
 * process counts in the database, so two processes allow a client what one does; SQLite serves one process, which
 * counts in its memory.
 */

test('a hit counts in its window; the window ends, the count starts again, and the ended window is forgotten', async () => {
  const { store, clock, close } = await startStore();
  try {
    const hits = [];
    for (let i = 0; i < 3; i++) hits.push(await countHit(store, 'all 198.51.100.7', 60_000));
    expect(hits).toEqual([
      { current: 1, ttl: 60_000 },
      { current: 2, ttl: 60_000 },
      { current: 3, ttl: 60_000 },
    ]);
    clock.advance(59_000);
    expect(await countHit(store, 'all 198.51.100.7', 60_000)).toEqual({ current: 4, ttl: 1_000 });
    expect(await countHit(store, 'all 198.51.100.8', 60_000)).toEqual({ current: 1, ttl: 60_000 });

    clock.advance(1_000);
    await forgetEndedWindows(store);
    expect(await store.db.selectFrom('rate_limit_hits').select('key').execute()).toEqual([{ key: 'all 198.51.100.8' }]);
    expect(await countHit(store, 'all 198.51.100.7', 60_000)).toEqual({ current: 1, ttl: 60_000 });
  } finally {
    await close();
  }
});

test('100 hits at once on one key count 100', async () => {
  const { store, close } = await startStore();
  try {
    const hits = await Promise.all(Array.from({ length: 100 }, () => countHit(store, 'POST /ajax/realty/login/ 198.51.100.9', 60_000)));
    expect(hits.map((hit) => hit.current).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  } finally {
    await close();
  }
});

describe('the sign-in limit of two server processes', () => {
  const place = processPlace();
  const start = () => startCheckoutServer(databaseEnv(place.database), place.distDir, { env: { RATE_LIMIT_PER_MINUTE: '600' } });

  /** A sign-in with a wrong password, as the page sends it (refused with 401 or the robot check's 400, not limited). */
  const signIn = (server: ChildServer, tab: Tab) =>
    fetch(`${server.base}/ajax/realty/login/`, {
      method: 'POST',
      headers: { ...tab.headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'login=79990000002&phone=79990000002&password=wrong&captcha=',
    });

  if (testEngine() === 'postgres') {
    test('on one PostgreSQL: ten attempts across both pass, the 11th is refused by either', async () => {
      const [a, b] = await Promise.all([start(), start()]);
      const tab = await openTab(a.base, 'demo-reg');
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push((await signIn(i % 2 === 0 ? a : b, tab)).status);
      expect(statuses.filter((status) => status === 429)).toEqual([]);

      for (const server of [a, b]) {
        const limited = await signIn(server, tab);
        expect(limited.status).toBe(429);
        expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(await limited.json()).toEqual({ success: false, error: expect.stringMatching(/^Слишком много запросов, повторите через \d+ с$/) });
      }
    });
  } else {
    test('on SQLite one process counts in its memory: the 11th attempt is refused, nothing is written', async () => {
      const server = await start();
      const tab = await openTab(server.base, 'demo-reg');
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) statuses.push((await signIn(server, tab)).status);
      expect(statuses.slice(0, 10).filter((status) => status === 429)).toEqual([]);
      expect(statuses[10]).toBe(429);
      expect(await (await signIn(server, tab)).json()).toEqual({ success: false, error: expect.stringMatching(/^Слишком много запросов, повторите через \d+ с$/) });
      const store = await openStore({ migrations, ...place.database, now: Date.now });
      try {
        expect(await store.db.selectFrom('rate_limit_hits').selectAll().execute()).toEqual([]);
      } finally {
        await store.close();
      }
    });
  }
});

if (testEngine() === 'postgres') {
  test("the merchant API's per-key limit is shared too: 3 a minute across two servers", async () => {
    const first = await startServer({ merchantRateLimitPerMinute: 3 });
    const second: FastifyInstance = await buildApp({ ...first.database, distDir: first.distDir, now: first.clock.now, logger: false, passwordCost: TEST_PASSWORD_COST, merchantRateLimitPerMinute: 3, webhookWorker: false, sweepEveryMs: 0 });
    try {
      const list = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/merchant/v1/payments', headers: { authorization: `Bearer ${merchantKey(first.app)}` } });
      expect((await Promise.all([list(first.app), list(second), list(first.app)])).map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
      const limited = await list(second);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ error: { code: 'rate_limited' } });
      expect(await countRows(first.app, 'rate_limit_hits')).toBe(1);
    } finally {
      await second.close();
      await first.close();
    }
  });
}

describe("each route's limit, one server", () => {
  test('sensitive routes have tighter limits than the global one', async () => {
    const limited = await startServer({ rateLimitPerMinute: 100 });
    const client = await openPage(limited.app);
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) {
      const answer = await client.post('/ajax/realty/login/', { login: '79990000009', phone: '79990000009', password: 'x', captcha: DEV_CAPTCHA_TOKEN }, { form: true });
      codes.push(answer.statusCode);
    }
    expect(codes.slice(0, 10).every((c) => c !== 429)).toBe(true);
    expect(codes.slice(10)).toEqual([429, 429]);
    // Other routes still answer.
    expect((await client.post('/ajax/check-email/', { email: 'a@b.ru' })).statusCode).toBe(200);
    await limited.close();
  });

  test("the SMS provider's callback has a limit of its own, below the global one", async () => {
    const limited = await startServer({ rateLimitPerMinute: 1000 });
    const post = () =>
      limited.app.inject({ method: 'POST', url: '/api/smsru/callback', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'data[]=sms_status%0A000000-1%0A103' });
    const codes: number[] = [];
    for (let i = 0; i < SMS_CALLBACK_LIMIT_PER_MINUTE + 2; i++) codes.push((await post()).statusCode);
    expect(codes.slice(0, SMS_CALLBACK_LIMIT_PER_MINUTE).every((c) => c === 200)).toBe(true);
    expect(codes.slice(SMS_CALLBACK_LIMIT_PER_MINUTE)).toEqual([429, 429]);
    // Other routes still answer.
    expect((await limited.app.inject({ method: 'GET', url: '/ajax/object-info/demo-anon' })).statusCode).toBe(200);
    await limited.close();
  });

  test('the global limit comes from the options', async () => {
    const limited = await startServer({ rateLimitPerMinute: 3 });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await limited.app.inject({ method: 'GET', url: '/ajax/object-info/demo-anon' })).statusCode);
    expect(answers).toEqual([200, 200, 200, 429]);
    await limited.close();
  });
});
