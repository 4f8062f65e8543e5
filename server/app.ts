import crypto from 'node:crypto';
import path from 'node:path';
import fs from 'node:fs';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifyRateLimit from '@fastify/rate-limit';
import { acquirerConfigProblem, defaultOptions, type AppOptions } from './config';
import { createGateway, type Gateway } from './acquirer/gateway';
import { rbsAcquirer } from './acquirer/rbs';
import { background, type Background } from './platform/background';
import { acquirerCallbackRoutes } from './acquirer/callback';
import { createRbsFake, RBS_FAKE_PATH, rbsFakeRoutes, SANDBOX_CREDENTIALS, type RbsFake } from './sandbox/rbs';
import { openStore, type RootStore, type SessionRow } from './store/store';
import { csrfRefusal, csrfSession, SESSION_LIFE, sessionIdOf, sweepEndedSessions } from './accounts/sessions';
import { pageRenderer, pageRoutes } from './platform/pages';
import { billRoutes } from './payments/billData';
import { paymentRoutes } from './payments/routes';
import { acquirerSandbox } from './sandbox/acquirer';
import { billsSandbox } from './sandbox/bills';
import { partiesSandbox } from './sandbox/parties';
import { sbpSandbox } from './sandbox/sbp';
import { sberpaySandbox } from './sandbox/sberpay';
import { accountRoutes } from './accounts/routes';
import { codeRoutes } from './accounts/codeRoutes';
import { sbpBankRoutes } from './sbpBanks/routes';
import { homeRoutes } from './sandbox/home';
import { createCaptchaVerifier } from './accounts/captcha';
import { CspReports, cspReportRoutes } from './platform/cspReports';
import { missingGateway, outboxGateway } from './accounts/sms';
import { apiSecurityHeaders, isApiUrl, pageSecurityHeaders } from './platform/securityHeaders';
import { MERCHANT_PREFIX, merchantApi } from './merchant/api';
import { webhooksSandbox } from './sandbox/webhooks';
import { newWebhookSecret } from './merchant/signature';
import { webhookWorker, type WebhookWorker } from './merchant/worker';

declare module 'fastify' {
  interface FastifyInstance {
    /** The one way routes reach the database. */
    store: RootStore;
    appOptions: AppOptions;
    cspReports: CspReports;
    /** The merchant side (issue 14): the sandbox's development API key (null when keys are configured), the webhooks. */
    merchant: { devApiKey: string | null; webhookSecret: string; webhookUrl: () => string | null; worker: WebhookWorker };
    /** The acquirer gateway (issue 13): Pay, reconciliation, refunds. */
    gateway: Gateway;
    /** Work after the answer (reconciling, refunds, the sandbox's callbacks); `idle()` waits for it. */
    background: Background;
    /** The key the acquirer's callbacks are signed with (ACQUIRER_CALLBACK_KEY, or the sandbox's, generated once). */
    callbackKey: () => Promise<string>;
    /** The sandbox's RBS fake (sandbox on only). */
    rbsFake: RbsFake | null;
  }
  interface FastifyRequest {
    /** The session of a POST, read by the CSRF hook (null on GETs and on routes that check the token themselves). */
    session: SessionRow | null;
  }
  interface FastifyContextConfig {
    /**
     * 'handler': the route compares the CSRF token itself, in the same database read as its own work (the status
     * poll); the hook only refuses a request without a session cookie or a token.
     */
    csrf?: 'handler';
  }
}

/**
 * Sandbox parties post their own forms; they stand for other hosts and are not bound to our session. The sandbox's
 * free-call line is the exception: a call signs an account in, so it takes the CSRF token like any POST of the page.
 * Browsers send CSP reports with no token at all (and the endpoint changes nothing but a counter).
 */
const csrfExempt = (url: string) =>
  (url.startsWith('/sandbox/') && !url.startsWith('/sandbox/free-call')) ||
  url === '/csp-report' ||
  url.startsWith('/csp-report?') ||
  // The merchant API takes no cookie at all: its bearer key is what a forged request cannot have.
  url.startsWith(`${MERCHANT_PREFIX}/`) ||
  // The acquirer's callback is signed with the shop's key instead (it is no browser of ours).
  url === '/api/acquirer/callback' ||
  url.startsWith('/api/acquirer/callback?');

/** A checkout link (`/pay/…`) that routing could not take answers the page's 404, not the API's JSON. */
const isCheckoutLink = (url: string) => url.startsWith('/pay/');

/**
 * The reference server, ready for `inject` or `listen`. Nothing listens here: `main.ts` does that.
 * The store is opened (and migrated) here; closing the app closes it.
 */
export async function buildApp(overrides: Partial<AppOptions> = {}): Promise<FastifyInstance> {
  const options = defaultOptions(overrides);
  // Without the sandbox, payments need a real acquirer: refuse to start rather than take payments nowhere.
  const problem = acquirerConfigProblem(options);
  if (problem) throw new Error(`Cannot start: ${problem}. See README, "Connecting a real acquirer".`);
  const pages = pageRenderer(options);

  const app = Fastify({
    logger: options.logger ? { level: options.logLevel, redact: ['req.headers.cookie', 'req.headers["x-csrf-token"]'] } : false,
    bodyLimit: 32 * 1024,
    // Behind configured proxies request.ip is the client's (X-Forwarded-For); the per-address limits count by it.
    ...(options.trustProxy.length > 0 ? { trustProxy: options.trustProxy } : {}),
    // A wrong type is a client mistake to refuse, not to coerce into something the payer did not send.
    // Errors the router raises before any hook (a malformed URL, an over-long path parameter) are bad input too.
    frameworkErrors: (error, request, reply) => {
      if (request.method === 'GET' && isCheckoutLink(request.url)) return void pages.notFound(reply as FastifyReply);
      void (reply as FastifyReply).code(400).send({ success: false, error: error.message });
    },
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false, allowUnionTypes: true } },
  });
  const store = await openStore({
    databaseUrl: options.databaseUrl,
    databasePath: options.databasePath,
    poolSize: options.databasePoolSize,
    now: options.now,
    log: (message, error) => app.log.error({ err: error }, message),
  });
  const cspReports = new CspReports();
  app.decorate('store', store);
  app.decorate('appOptions', options);
  app.decorate('cspReports', cspReports);
  app.decorateRequest('session', null);

  // The merchant side: its keys (configured, or the sandbox's development key generated once and kept), the webhook
  // secret (configured, or generated once and kept) and the delivery worker.
  const devApiKey =
    options.merchantApiKeys.length === 0 && options.sandbox ? await store.settingOnce('merchant_dev_api_key', `sk_test_${crypto.randomBytes(24).toString('base64url')}`) : null;
  const webhookSecret = options.webhookSecret ?? (await store.settingOnce('webhook_secret', newWebhookSecret()));
  // The sandbox's inbox when no URL is set; its address follows the port `main.ts` listens on.
  const webhookUrl = () => options.webhookUrl ?? (options.sandbox ? `${app.appOptions.publicUrl}/sandbox/webhooks` : null);
  const worker = webhookWorker(store, {
    target: () => {
      const url = webhookUrl();
      return url ? { url, secret: webhookSecret } : null;
    },
    retryScheduleMs: options.webhookRetryScheduleMs,
    timeoutMs: options.webhookTimeoutMs,
    pollMs: options.webhookPollMs,
    fetch: options.webhookFetch,
    log: (message, error) => app.log.warn({ err: error }, message),
  });
  app.decorate('merchant', { devApiKey, webhookSecret, webhookUrl, worker });
  const log = (message: string, error?: unknown) => (error ? app.log.error({ err: error }, message) : app.log.warn(message));
  const work = background(log);
  let key: Promise<string> | null = null;
  // With the sandbox's fake the key is generated once and kept in the database, so the fake and every process agree.
  const callbackKey = () =>
    (key ??= options.acquirerCallbackKey ? Promise.resolve(options.acquirerCallbackKey) : store.settingOnce('sandbox_rbs_callback_key', crypto.randomBytes(32).toString('hex')));
  const acquirer = rbsAcquirer({
    // The sandbox's fake is this server: its URL is known only after listen (PORT=0), so it is read on every call.
    baseUrl: options.acquirerUrl ?? (() => `${options.publicUrl}${RBS_FAKE_PATH}`),
    credentials: options.acquirerUrl
      ? options.acquirerToken
        ? { token: options.acquirerToken }
        : { userName: options.acquirerUserName!, password: options.acquirerPassword! }
      : SANDBOX_CREDENTIALS,
    fetch: options.acquirerFetch,
    timeoutMs: options.acquirerTimeoutMs,
    onExchange: (exchange) =>
      store.recordExchange({
        order_id: exchange.attempt,
        method: exchange.method,
        request: JSON.stringify(exchange.request),
        answer: exchange.answer === null ? null : JSON.stringify(exchange.answer),
        error: exchange.error,
        http_status: exchange.httpStatus,
        ms: exchange.ms,
      }),
  });
  const gateway = createGateway({ store, acquirer, options, background: work, log });
  app.decorate('gateway', gateway);
  app.decorate('background', work);
  app.decorate('callbackKey', callbackKey);
  app.decorate('rbsFake', options.sandbox ? createRbsFake({ store, options, callbackKey, background: work }) : null);
  // A lost callback never leaves a paid payer waiting: pending attempts are reconciled on start and every minute.
  const sweepAcquirer = () => work.run('acquirer sweep', () => gateway.sweep());
  const acquirerSweep = options.sweepEveryMs > 0 ? setInterval(sweepAcquirer, options.sweepEveryMs) : null;
  acquirerSweep?.unref();
  app.addHook('onReady', async () => {
    if (options.sweepEveryMs > 0) sweepAcquirer();
  });
  // Ended sessions are refused on use already; this deletes the rows of those nobody comes back to (every process
  // sweeps; a second sweep of the same rows deletes nothing).
  const sweep = setInterval(
    () => void sweepEndedSessions(store).catch((error: unknown) => app.log.error({ err: error }, 'session sweep failed')),
    SESSION_LIFE.sweepEveryMs,
  );
  sweep.unref();
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    await worker.stop();
    if (acquirerSweep) clearInterval(acquirerSweep);
    await work.close();
    await store.close();
  });

  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { bodyLimit: 32 * 1024 });
  // Helmet's headers, computed once (server/securityHeaders.ts). No cross-origin opener or embedder policy: the bank
  // widget's helper tab and hCaptcha need cross-origin windows to talk to this page.
  const pageHeaders = pageSecurityHeaders(options);
  const apiHeaders = apiSecurityHeaders(pageHeaders);
  app.addHook('onRequest', (request, reply, done) => {
    void reply.headers(isApiUrl(request.url) ? apiHeaders : pageHeaders);
    done();
  });
  if (options.rateLimitPerMinute > 0) {
    await app.register(fastifyRateLimit, {
      max: options.rateLimitPerMinute,
      timeWindow: 60_000,
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        success: false,
        error: `Слишком много запросов, повторите через ${Math.ceil(context.ttl / 1000)} с`,
      }),
    });
  }

  // CSRF before the body is read: a forged POST is refused without touching anything. The token is read from the
  // database on every POST (no process remembers it: another may have renamed or ended the session).
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'POST' || csrfExempt(request.url)) return;
    const header = request.headers['x-csrf-token'];
    if (request.routeOptions.config.csrf === 'handler') {
      if (!sessionIdOf(request) || !header) return reply.code(403).send(csrfRefusal);
      return;
    }
    const session = await csrfSession(store, request, header);
    if (!session) return reply.code(403).send(csrfRefusal);
    // The handlers need the session too: one read serves both.
    request.session = session;
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(500).send({ success: false, error: 'Внутренняя ошибка сервера' });
    }
    // Oversized bodies are bad input like any other (issue: 400 with a message).
    const code = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 400 : status;
    const message = error.validation ? `Неверные данные запроса: ${error.message}` : error.message;
    return reply.code(code).send({ success: false, error: message });
  });
  app.setNotFoundHandler((request, reply) =>
    request.method === 'GET' && isCheckoutLink(request.url) ? pages.notFound(reply) : reply.code(404).send({ success: false, error: 'Не найдено' }),
  );

  const sms = options.sandbox ? outboxGateway : missingGateway(app.log);
  const verifyCaptcha = createCaptchaVerifier(options);

  await app.register(pageRoutes, { options, pages });
  await app.register(billRoutes);
  await app.register(paymentRoutes, { options });
  await app.register(acquirerCallbackRoutes);
  await app.register(codeRoutes, { sms, verifyCaptcha, now: options.now });
  await app.register(accountRoutes, { options, sms, verifyCaptcha });
  await app.register(cspReportRoutes, { reports: cspReports });
  await app.register(sbpBankRoutes, { options });
  await app.register(merchantApi, { prefix: MERCHANT_PREFIX, options, keys: devApiKey ? [devApiKey] : options.merchantApiKeys });

  if (options.sandbox) {
    const css = fs.readFileSync(path.join(__dirname, 'sandbox', 'sandbox.css'), 'utf8');
    app.get('/sandbox/sandbox.css', async (_request, reply) => reply.type('text/css; charset=utf-8').send(css));
    const fake = app.rbsFake!;
    await app.register(rbsFakeRoutes, { options, fake });
    await app.register(acquirerSandbox, { fake });
    await app.register(billsSandbox);
    await app.register(sbpSandbox, { fake });
    await app.register(sberpaySandbox, { fake });
    await app.register(partiesSandbox, { options });
    await app.register(webhooksSandbox, { secret: webhookSecret });
    await app.register(homeRoutes, { options });
    app.get('/sandbox/csp-reports', async () => ({ count: cspReports.count, reports: cspReports.recent }));
  }
  // Deliveries and the expiry sweep start with the server (tests that drive them by hand turn them off).
  if (options.webhookWorker) app.addHook('onReady', async () => worker.start());
  return app;
}
