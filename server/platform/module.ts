/**
 * The platform module: what every route shares. Form bodies, the security headers of every answer, the per-client
 * request limits (counted in the database on PostgreSQL: operations/limits.ts), the answers to errors and unknown URLs,
 * the built page's assets, and the CSP reports. Cookies have no hook here: a route reads the one it needs by name
 * (cookies.ts).
 */
import path from 'node:path';
import fastifyFormbody from '@fastify/formbody';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { AppOptions } from '../config';
import { rateLimitStore } from '../operations/limits';
import { CspReports, cspReportRoutes } from './cspReports';
import { isCheckoutLink, SERVER_RENDER_FILE } from './pages';
import { validationMessage } from './schemas';
import { apiSecurityHeaders, isApiUrl, pageSecurityHeaders } from './securityHeaders';
import { named } from '../operations/named';

declare module 'fastify' {
  interface FastifyInstance {
    /** CSP violation reports, kept in memory (the sandbox lists them). */
    cspReports: CspReports;
  }
}

export async function platformModule(app: FastifyInstance, options: AppOptions): Promise<void> {
  await app.register(fastifyFormbody, { bodyLimit: 32 * 1024 });
  // Helmet's headers, computed once (securityHeaders.ts). No cross-origin opener or embedder policy: the bank widget's
  // helper tab and hCaptcha need cross-origin windows to talk to this page.
  const pageHeaders = pageSecurityHeaders(options);
  const apiHeaders = apiSecurityHeaders(pageHeaders);
  if (!options.hooksOff.includes('security-headers')) {
    app.addHook('onRequest', (request, reply, done) => {
      void reply.headers(isApiUrl(request.url) ? apiHeaders : pageHeaders);
      done();
    });
  }
  if (options.rateLimitPerMinute > 0) {
    // On PostgreSQL the hits are counted in the database, so every process shares the global and the per-route limits.
    const shared = rateLimitStore(app.store, (message, error) => app.log.warn({ err: error }, message));
    await app.register(fastifyRateLimit, {
      max: options.rateLimitPerMinute,
      timeWindow: 60_000,
      ...(shared ? { store: shared, skipOnError: true } : {}),
      // Thrown, so it must be an Error with its status: the error handler answers its message (a plain object's would be lost).
      errorResponseBuilder: (_request, context) =>
        Object.assign(new Error(`Слишком много запросов, повторите через ${Math.ceil(context.ttl / 1000)} с`), { statusCode: 429 }),
    });
  }
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(500).send({ success: false, error: 'Внутренняя ошибка сервера' });
    }
    // An oversized body is bad input like any other: 400 with a message.
    const code = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 400 : status;
    const message = error.validation ? validationMessage(error) : error.message;
    return reply.code(code).send({ success: false, error: message });
  });
  app.setNotFoundHandler((request, reply) =>
    request.method === 'GET' && isCheckoutLink(request.url) ? app.pages.notFound(reply) : reply.code(404).send({ success: false, error: 'Не найдено' }),
  );

  await app.register(fastifyStatic, {
    root: options.distDir,
    prefix: '/assets/',
    index: false,
    // Hashed file names never change content, so browsers may keep them for a year.
    immutable: true,
    maxAge: '365d',
    // The build writes .br/.gz twins of the scripts and styles (scripts/precompress.ts); send those when accepted.
    preCompressed: true,
    // The server's own rendering of the page is built into the same folder; it is not the page's to load.
    allowedPath: (pathName) => !pathName.startsWith(`/${path.dirname(SERVER_RENDER_FILE)}/`),
    setHeaders: (res) => res.setHeader('vary', 'accept-encoding'),
  });
  const cspReports = new CspReports();
  app.decorate('cspReports', cspReports);
  await app.register(named(cspReportRoutes), { reports: cspReports });
}
