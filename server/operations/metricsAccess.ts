/**
 * Who may read `/metrics`. With METRICS_PORT it is served on that port only (a second listener, kept off the proxy),
 * and the main port answers 404; with METRICS_TOKEN it needs `Authorization: Bearer <token>` (on either port). With
 * neither, only the sandbox serves it openly: a production server without a guard answers 404, as for any unknown URL.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { AppMetrics } from './metrics';

export interface MetricsGuard {
  /** METRICS_TOKEN: the bearer token a scrape must carry; null: none asked. */
  metricsToken: string | null;
  /** METRICS_PORT: serve the metrics on this port only; null: on the main port. */
  metricsPort: number | null;
  sandbox: boolean;
}

/** Whether the main port serves `/metrics`. */
export const servedOnMainPort = (guard: MetricsGuard) => guard.metricsPort === null && (guard.metricsToken !== null || guard.sandbox);

const digest = (value: string) => crypto.createHash('sha256').update(value).digest();

/** Whether an Authorization header carries the token (compared in constant time, whatever its length). */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer (\S+)$/i.exec(authorization ?? '')?.[1];
  return given !== undefined && crypto.timingSafeEqual(digest(given), digest(token));
}

const UNAUTHORIZED = { status: 'unauthorized', error: 'Missing or wrong metrics token: send Authorization: Bearer <METRICS_TOKEN>' };

/** `GET /metrics` on the main port, when the guard allows it there. */
export async function metricsRoute(app: FastifyInstance, { metrics, guard }: { metrics: AppMetrics; guard: MetricsGuard }): Promise<void> {
  if (!servedOnMainPort(guard)) return;
  app.get('/metrics', { config: { rateLimit: false } }, async (request, reply) => {
    if (guard.metricsToken !== null && !bearerMatches(request.headers.authorization, guard.metricsToken)) {
      return reply.code(401).header('www-authenticate', 'Bearer').send(UNAUTHORIZED);
    }
    return reply.type(metrics.contentType).header('cache-control', 'no-store').send(await metrics.text());
  });
}

/** The second listener of METRICS_PORT: `GET /metrics` (with the token when one is set), 404 for anything else. */
function metricsServer(metrics: AppMetrics, token: string | null, log: (message: string, error: unknown) => void): http.Server {
  return http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'not found' }));
      return;
    }
    if (token !== null && !bearerMatches(request.headers.authorization, token)) {
      response.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' }).end(JSON.stringify(UNAUTHORIZED));
      return;
    }
    metrics.text().then(
      (text) => response.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' }).end(text),
      (error: unknown) => {
        log('metrics could not be served', error);
        response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'error' }));
      },
    );
  });
}

/**
 * Listens for the metrics on METRICS_PORT (`main.ts` calls it once the app listens); stopped with the app's workers.
 * Answers the port it got (0 asks for any).
 */
export async function listenForMetrics(app: FastifyInstance, port: number, host: string): Promise<number> {
  const server = metricsServer(app.metrics, app.appOptions.metricsToken, (message, error) => app.log.error({ err: error }, message));
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  app.workers.add('metrics listener', {
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
  return (server.address() as AddressInfo).port;
}
