import pg from 'pg';
import { migrations } from '../../../server/migrations';
import { readinessCheck } from '../../../server/operations/health';
import { adminUrl } from '../../support/testDatabase';
import { countRows, startServer, testEngine, type TestServer } from '../helpers';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ rateLimitPerMinute: 3 });
});

afterAll(async () => {
  await server?.close();
});

const ask = (url: string, target = server) => target.app.inject({ method: 'GET', url });

test('live: the process answers, with no cookie, no session and nothing cached', async () => {
  const sessions = await countRows(server.app, 'sessions');
  const live = await ask('/health/live');
  expect(live.statusCode).toBe(200);
  expect(live.json()).toMatchObject({ status: 'ok', uptimeSeconds: expect.any(Number) });
  expect(live.headers['set-cookie']).toBeUndefined();
  expect(live.headers['cache-control']).toBe('no-store');
  expect(await countRows(server.app, 'sessions')).toBe(sessions);
});

test('ready: the database answers, every migration is applied, the process is not stopping', async () => {
  const sessions = await countRows(server.app, 'sessions');
  const ready = await ask('/health/ready');
  expect(ready.statusCode).toBe(200);
  expect(ready.json()).toEqual({ status: 'ok', checks: { shutdown: 'ok', database: 'ok', migrations: 'ok' } });
  expect(ready.headers['set-cookie']).toBeUndefined();
  expect(await countRows(server.app, 'sessions')).toBe(sessions);
});

test('neither is rate-limited: the limit of 3 a minute stops other calls, not these', async () => {
  for (let i = 0; i < 10; i++) {
    const answers = await Promise.all([ask('/health/live'), ask('/health/ready')]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect(answers.map((answer) => answer.headers['x-ratelimit-limit'])).toEqual([undefined, undefined]);
  }
  const limited = [];
  for (let i = 0; i < 4; i++) limited.push((await ask('/ajax/object-info/demo-anon')).statusCode);
  expect(limited).toEqual([200, 200, 200, 429]);
});

test('a migration this code knows but the database lacks: not ready, and which one is named', async () => {
  const check = readinessCheck(server.app.store, [...Object.keys(migrations), '9999-not-yet'], { stopping: false }, () => {});
  expect(await check()).toEqual({ ready: false, checks: { shutdown: 'ok', database: 'ok', migrations: 'not applied: 9999-not-yet' } });
});

describe('not ready', () => {
  let other: TestServer;
  beforeEach(async () => {
    other = await startServer();
  });
  afterEach(async () => {
    await other.close();
  });

  test('stopping: 503 at once, naming the shutdown, while live still answers', async () => {
    other.app.lifecycle.beginStopping();
    const ready = await ask('/health/ready', other);
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', failed: ['shutdown'], checks: { shutdown: 'stopping', database: 'not checked', migrations: 'not checked' } });
    expect((await ask('/health/live', other)).statusCode).toBe(200);
  });

  if (testEngine() === 'sqlite') {
    test('the database closed under it: 503, naming the database and nothing of its error', async () => {
      await other.app.store.close();
      const ready = await ask('/health/ready', other);
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', failed: ['database'], checks: { shutdown: 'ok', database: 'unreachable', migrations: 'not checked' } });
      expect((await ask('/health/live', other)).statusCode).toBe(200);
    });
  }

  if (testEngine() === 'postgres') {
    /** Runs `work` on the test cluster's maintenance database, as its administrator. */
    const asAdmin = async (work: (client: pg.Client) => Promise<unknown>) => {
      const client = new pg.Client({ connectionString: adminUrl() });
      await client.connect();
      try {
        await work(client);
      } finally {
        await client.end();
      }
    };
    const name = () => new URL(other.database.databaseUrl!).pathname.slice(1);

    test('the database refuses connections: 503 naming the database; ready again once it is back', async () => {
      await asAdmin(async (admin) => {
        await admin.query(`ALTER DATABASE ${name()} ALLOW_CONNECTIONS false`);
        await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name()]);
      });
      const ready = await ask('/health/ready', other);
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', failed: ['database'], checks: { shutdown: 'ok', database: 'unreachable', migrations: 'not checked' } });

      await asAdmin((admin) => admin.query(`ALTER DATABASE ${name()} ALLOW_CONNECTIONS true`));
      expect((await ask('/health/ready', other)).statusCode).toBe(200);
    });

    test('the database does not answer within a second: 503; two checks meanwhile wait for one query', async () => {
      const locker = new pg.Client({ connectionString: other.database.databaseUrl! });
      await locker.connect();
      try {
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE kysely_migration IN ACCESS EXCLUSIVE MODE');
        const [first, second] = await Promise.all([ask('/health/ready', other), ask('/health/ready', other)]);
        for (const ready of [first!, second!]) {
          expect(ready.statusCode).toBe(503);
          expect(ready.json()).toEqual({
            status: 'unavailable',
            failed: ['database'],
            checks: { shutdown: 'ok', database: 'no answer within 1000 ms', migrations: 'not checked' },
          });
        }
        const waiting = await locker.query<{ n: string }>(
          "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND query LIKE '%kysely_migration%'",
          [name()],
        );
        expect(Number(waiting.rows[0]!.n)).toBe(1);
      } finally {
        await locker.query('COMMIT');
        await locker.end();
      }
      expect((await ask('/health/ready', other)).statusCode).toBe(200);
    });
  }
});
