/**
 * The health checks a proxy or an orchestrator asks: `GET /health/live`, the process answers (no I/O at all), and
 * `GET /health/ready`, the process can serve: the database answers within a second, every migration this code knows
 * is applied, and the process is not shutting down. 200 `{ status: 'ok', … }`, or 503 naming what failed. Neither
 * reads a cookie, starts a session, needs a CSRF token or counts against a rate limit.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Store } from '../store/store';

/** How long the database may take to answer the readiness query. */
export const READY_DATABASE_TIMEOUT_MS = 1000;

export type CheckResult = 'ok' | string;

export interface Readiness {
  ready: boolean;
  checks: { shutdown: CheckResult; database: CheckResult; migrations: CheckResult };
}

/** What the shutdown tells the checks. */
export interface ShutdownState {
  readonly stopping: boolean;
}

/** The migrations that `names` lacks, of those this code knows. */
const missing = (known: readonly string[], names: readonly string[]) => known.filter((name) => !names.includes(name));

/**
 * The readiness check of one app. One database query at a time: while the database hangs, later checks wait for the
 * query already sent (each for its own second) rather than take another pool connection each.
 */
export function readinessCheck(
  store: Store,
  migrationNames: readonly string[],
  shutdown: ShutdownState,
  log: (message: string, error: unknown) => void,
): () => Promise<Readiness> {
  let inFlight: Promise<string[]> | null = null;
  const appliedMigrations = () =>
    (inFlight ??= sql<{ name: string }>`select name from kysely_migration`
      .execute(store.db)
      .then((result) => result.rows.map((row) => row.name))
      .finally(() => (inFlight = null)));

  return async () => {
    if (shutdown.stopping) return { ready: false, checks: { shutdown: 'stopping', database: 'not checked', migrations: 'not checked' } };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), READY_DATABASE_TIMEOUT_MS);
      timer.unref();
    });
    try {
      const names = await Promise.race([appliedMigrations(), timeout]);
      if (names === 'timeout') return { ready: false, checks: { shutdown: 'ok', database: `no answer within ${READY_DATABASE_TIMEOUT_MS} ms`, migrations: 'not checked' } };
      const lacking = missing(migrationNames, names);
      const migrations = lacking.length === 0 ? 'ok' : `not applied: ${lacking.join(', ')}`;
      return { ready: lacking.length === 0, checks: { shutdown: 'ok', database: 'ok', migrations } };
    } catch (error) {
      // The answer is public: the database's own words (its host, its user) go to the log only.
      log('readiness: the database did not answer', error);
      return { ready: false, checks: { shutdown: 'ok', database: 'unreachable', migrations: 'not checked' } };
    } finally {
      clearTimeout(timer);
    }
  };
}

/** Health answers are never cached and never limited. */
const healthRoute = { config: { rateLimit: false as const } };

export async function healthRoutes(app: FastifyInstance, { ready }: { ready: () => Promise<Readiness> }): Promise<void> {
  app.get('/health/live', healthRoute, async (_request, reply) => {
    void reply.header('cache-control', 'no-store');
    return { status: 'ok', uptimeSeconds: Math.round(process.uptime()) };
  });

  app.get('/health/ready', healthRoute, async (_request, reply) => {
    const readiness = await ready();
    const failed = Object.entries(readiness.checks).flatMap(([name, result]) => (result === 'ok' || result === 'not checked' ? [] : [name]));
    void reply.header('cache-control', 'no-store');
    if (readiness.ready) return { status: 'ok', checks: readiness.checks };
    return reply.code(503).send({ status: 'unavailable', failed, checks: readiness.checks });
  });
}
