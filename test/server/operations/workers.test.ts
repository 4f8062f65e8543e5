import { sql } from 'kysely';
import { defaultOptions } from '../../../server/config';
import { operationsFrom } from '../../../server/environment';
import { rounds, workers } from '../../../server/operations/workers';
import { startServer } from '../helpers';

test('the workers start together, a late one at once, and all stop even when one fails to', async () => {
  const happened: string[] = [];
  const failures: string[] = [];
  const running = workers((message) => failures.push(message));
  running.add('deliveries', { start: () => happened.push('deliveries start'), stop: async () => void happened.push('deliveries stop') });
  running.add('listener', { stop: () => void happened.push('listener stop') });
  expect(happened).toEqual([]);
  running.startAll();
  running.add('late', { start: () => happened.push('late start'), stop: () => {
    throw new Error('stuck');
  } });
  expect(happened).toEqual(['deliveries start', 'late start']);
  await running.stopAll();
  expect(happened).toEqual(['deliveries start', 'late start', 'deliveries stop', 'listener stop']);
  expect(failures).toEqual(['late did not stop cleanly']);
});

test('rounds run one at a time: wakes during a round make one more after it, a failed round is logged, stop waits for the one in flight', async () => {
  const held: (() => void)[] = [];
  const failed: string[] = [];
  let started = 0;
  let fail = false;
  // Each round waits until the test lets it end, so the test decides what happens while it runs.
  const round = () => {
    started += 1;
    return new Promise<void>((resolve, reject) => held.push(() => (fail ? reject(new Error('down')) : resolve())));
  };
  const roundStarted = async (count: number) => {
    while (started < count) await new Promise((resolve) => setImmediate(resolve));
  };
  const loop = rounds(3_600_000, round, (error) => failed.push((error as Error).message));
  loop.wake();
  expect([loop.started, started]).toEqual([false, 0]);

  loop.start();
  await roundStarted(1);
  loop.wake();
  loop.wake();
  expect(started).toBe(1);
  fail = true;
  held.shift()!();
  // The two wakes made one more round, right after the first, which failed and was logged.
  await roundStarted(2);
  expect(failed).toEqual(['down']);
  fail = false;

  let stopped = false;
  const stopping = loop.stop().then(() => (stopped = true));
  loop.wake();
  await new Promise((resolve) => setImmediate(resolve));
  expect([loop.started, stopped]).toEqual([false, false]);
  held.shift()!();
  await stopping;
  expect([started, held.length]).toEqual([2, 0]);
});

test('on an app: a worker starts when the app is ready and stops on close, while the database is still open', async () => {
  const server = await startServer();
  const happened: string[] = [];
  server.app.workers.add('probe', {
    start: () => happened.push('start'),
    stop: async () => {
      const row = await sql<{ one: number }>`select 1 as one`.execute(server.app.store.db);
      happened.push(`stop, the database answers ${row.rows[0]!.one}`);
    },
  });
  await server.app.ready();
  expect(happened).toEqual(['start']);
  // Stopping: every answer closes its connection, so none holds the close open.
  server.app.lifecycle.beginStopping();
  expect((await server.app.inject({ method: 'GET', url: '/health/live' })).headers.connection).toBe('close');
  await server.close();
  expect(happened).toEqual(['start', 'stop, the database answers 1']);
});

test("a hold's life from HOLD_RELEASE_AFTER_MS: 6 days 12 hours when absent, a whole number from a minute to 7 days", () => {
  expect(operationsFrom({})).not.toHaveProperty('holdReleaseAfterMs');
  expect(defaultOptions(operationsFrom({})).holdReleaseAfterMs).toBe(561_600_000);
  expect(operationsFrom({ HOLD_RELEASE_AFTER_MS: '' })).not.toHaveProperty('holdReleaseAfterMs');
  expect(operationsFrom({ HOLD_RELEASE_AFTER_MS: '86400000' }).holdReleaseAfterMs).toBe(86_400_000);
  expect(defaultOptions(operationsFrom({ HOLD_RELEASE_AFTER_MS: '60000' })).holdReleaseAfterMs).toBe(60_000);
  expect(operationsFrom({ HOLD_RELEASE_AFTER_MS: '604800000' }).holdReleaseAfterMs).toBe(604_800_000);
  // Below a minute, beyond the 7 days a card hold lives at most, or not a whole number: refused, the variable named.
  expect(() => operationsFrom({ HOLD_RELEASE_AFTER_MS: '59999' })).toThrow('HOLD_RELEASE_AFTER_MS must be a whole number from 60000 to 604800000 (it is "59999")');
  expect(() => operationsFrom({ HOLD_RELEASE_AFTER_MS: '604800001' })).toThrow('HOLD_RELEASE_AFTER_MS must be a whole number from 60000 to 604800000 (it is "604800001")');
  expect(() => operationsFrom({ HOLD_RELEASE_AFTER_MS: '86400000.5' })).toThrow(/HOLD_RELEASE_AFTER_MS/);
  expect(() => operationsFrom({ HOLD_RELEASE_AFTER_MS: '6d' })).toThrow(/HOLD_RELEASE_AFTER_MS/);
  expect(() => operationsFrom({ HOLD_RELEASE_AFTER_MS: '-1' })).toThrow(/HOLD_RELEASE_AFTER_MS/);
});

test('the operations settings from the environment, and a clear refusal of a bad one', () => {
  expect(operationsFrom({})).toEqual({ metricsToken: null, metricsPort: null });
  expect(operationsFrom({ METRICS_PORT: '9100', METRICS_TOKEN: 'k'.repeat(32), SHUTDOWN_TIMEOUT_MS: '25000', ACQUIRER_TIMEOUT_MS: '8000' })).toEqual({
    metricsToken: 'k'.repeat(32),
    metricsPort: 9100,
    shutdownTimeoutMs: 25_000,
    acquirerTimeoutMs: 8_000,
  });
  expect(() => operationsFrom({ METRICS_PORT: 'metrics' })).toThrow('METRICS_PORT must be a whole number from 0 to 65535 (it is "metrics")');
  expect(() => operationsFrom({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
  expect(() => operationsFrom({ SHUTDOWN_TIMEOUT_MS: '0' })).toThrow('SHUTDOWN_TIMEOUT_MS must be a whole number from 1 to 3600000 (it is "0")');
  expect(() => operationsFrom({ SHUTDOWN_TIMEOUT_MS: '2.5' })).toThrow(/SHUTDOWN_TIMEOUT_MS/);
  expect(() => operationsFrom({ ACQUIRER_TIMEOUT_MS: '50' })).toThrow(/ACQUIRER_TIMEOUT_MS/);
  expect(() => operationsFrom({ METRICS_TOKEN: 'short' })).toThrow('METRICS_TOKEN must be 16 to 200 printable characters without spaces');
  expect(() => operationsFrom({ METRICS_TOKEN: 'has a space in it, long enough' })).toThrow(/METRICS_TOKEN/);
});
