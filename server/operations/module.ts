/**
 * The operations module: what running the server in production needs around the product. Every request's id, the
 * health checks, the metrics (and who may read them), the counters every process shares for the per-client limits,
 * and the lifecycle a graceful stop goes through. Registered first, so its hooks see every request, a refused one
 * included.
 */
import type { FastifyInstance } from 'fastify';
import type { AppOptions, PerRequestHook } from '../config';
import { healthRoutes, readinessCheck } from './health';
import { forgetEndedWindows, hitCounter, sharesLimits, type HitCounter } from './limits';
import { appMetrics, httpTimings, type AppMetrics } from './metrics';
import { metricsRoute } from './metricsAccess';
import { requestIdHooks } from './requestIds';
import { closingHooks, lifecycle, type Lifecycle } from './shutdown';
import { periodic } from './workers';
import { named } from './named';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether the app is stopping (readiness fails), and the moment its listener stops accepting. */
    lifecycle: Lifecycle;
    /** This app's metrics: the process's and its own gauges (`app.metrics.gauge` adds one read at each scrape). */
    metrics: AppMetrics;
    /** Counts a per-key limit's hits (the merchant API's): in the database on PostgreSQL, so every process shares it. */
    hitCounter: HitCounter;
  }
}

/** Ended windows of the shared limits are deleted this often. */
const FORGET_WINDOWS_EVERY_MS = 5 * 60_000;

export async function operationsModule(app: FastifyInstance, options: AppOptions, { migrationNames }: { migrationNames: readonly string[] }): Promise<void> {
  const store = app.store;
  const warn = (message: string, error: unknown) => app.log.warn({ err: error }, message);
  // Every hook runs in production; a benchmark may leave one out to measure it (AppOptions.hooksOff).
  const on = (hook: PerRequestHook) => !options.hooksOff.includes(hook);
  if (on('request-ids')) requestIdHooks(app);

  const state = lifecycle();
  app.decorate('lifecycle', state);
  closingHooks(app, state, { connectionClose: on('closing') });

  const metrics = appMetrics(warn);
  app.decorate('metrics', metrics);
  if (on('metrics')) httpTimings(app);
  if (store.poolStats()) {
    const pool = () => store.poolStats()!;
    metrics.gauge('checkout_db_pool_connections_in_use', 'PostgreSQL connections of this process running a query or a transaction', () => pool().open - pool().idle);
    metrics.gauge('checkout_db_pool_connections_idle', 'PostgreSQL connections of this process open and idle', () => pool().idle);
    metrics.gauge('checkout_db_pool_connections_max', 'The most PostgreSQL connections this process opens (DATABASE_POOL_SIZE)', () => pool().max);
    metrics.gauge('checkout_db_pool_waiting_queries', 'Queries of this process waiting for a free PostgreSQL connection', () => pool().waiting);
  }

  app.decorate('hitCounter', hitCounter(store));
  if (sharesLimits(store)) {
    const sweep = () => void forgetEndedWindows(store).catch((error: unknown) => warn('rate-limit windows not swept', error));
    app.workers.add('rate-limit window sweep', periodic(FORGET_WINDOWS_EVERY_MS, sweep));
  }

  await app.register(named(healthRoutes), { ready: readinessCheck(store, migrationNames, state, warn) });
  await app.register(named(metricsRoute), { metrics, guard: options });
}
