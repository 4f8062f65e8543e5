/**
 * The reference server, ready for `inject` or `listen`: the composition root. It builds Fastify, opens the store
 * (migrating it) and registers the domain modules; each builds its own parts (its routes, timers, workers). Nothing
 * listens here: `main.ts` does that. Closing the app stops every module's timers and workers, waits for the work in
 * the background, then closes the store.
 */
import Fastify, { LogController, type FastifyInstance, type FastifyReply } from 'fastify';
import { accountsModule } from './accounts/module';
import { acquirerModule } from './acquirer/module';
import { acquirerConfigProblem, defaultOptions, logsRequests, smsConfigProblem, type AppOptions } from './config';
import { deskModule } from './desk/module';
import { merchantModule } from './merchant/module';
import { migrations } from './migrations';
import { operationsModule } from './operations/module';
import { REQUEST_ID_HEADER, requestBinding, requestIdOf } from './operations/requestIds';
import { workers, type Workers } from './operations/workers';
import { paymentsModule } from './payments/module';
import { background, type Background } from './platform/background';
import { platformModule } from './platform/module';
import { validatorOptions } from './platform/schemas';
import { onePerProcess } from './platform/schemaCompilers';
import { isCheckoutLink, pageRenderer } from './platform/pages';
import { payerMerchant, type ProfileDefaults } from './profile/profile';
import { standInLogos } from './sandbox/bankLogos';
import { sandboxModule } from './sandbox/module';
import { sbpBankRoutes } from './sbpBanks/routes';
import { configuredSmsProvider } from './smsProvider/smsru';
import { openStore, type RootStore } from './store/store';
import { named } from './operations/named';

declare module 'fastify' {
  interface FastifyInstance {
    /** The one way routes reach the database. */
    store: RootStore;
    appOptions: AppOptions;
    /** Work after the answer (reconciling, refunds, the sandbox's callbacks); `idle()` waits for it. */
    background: Background;
    /** The background workers (webhook deliveries, periodic jobs): started when ready, stopped on close, in one place. */
    workers: Workers;
  }
}

export async function buildApp(overrides: Partial<AppOptions> = {}): Promise<FastifyInstance> {
  const options = defaultOptions(overrides);
  // Without the sandbox, payments need a real acquirer: refuse to start rather than take payments nowhere.
  const problem = acquirerConfigProblem(options);
  if (problem) throw new Error(`Cannot start: ${problem}. See README, "Connecting a real acquirer".`);
  // Nor send codes, passwords and free calls nowhere.
  const smsProblem = smsConfigProblem(options);
  if (smsProblem) throw new Error(`Cannot start: ${smsProblem}. See README, "Connecting an SMS provider".`);
  // The merchant's profile (profile/): what the configuration says until an admin changes it at the desk.
  const profile: ProfileDefaults = {
    merchantName: options.merchantName,
    merchantSupportPhone: options.merchantSupportPhone,
    merchantSupportEmail: options.merchantSupportEmail,
    webhookUrl: () => app.merchant.webhookUrl(),
  };
  // The header of every page says whose it is, as the profile says it now (read when a page is made: the store is open).
  const pages = pageRenderer(options, () => payerMerchant(app.store, profile));
  const requestIds = !options.hooksOff.includes('request-ids');

  const app = Fastify({
    logger: options.logger
      ? { level: options.logLevel, redact: ['req.headers.cookie', 'req.headers["x-csrf-token"]'] }
      : false,
    // Fastify's own line per request and per answer are at info: at a level that drops them, nothing of them is computed.
    logController: new LogController({ disableRequestLogging: !logsRequests(options.logLevel) }),
    // Every request's id: a trusted proxy's X-Request-Id when it is well formed, else a new one (operations/requestIds.ts).
    ...(requestIds ? { genReqId: requestIdOf(options.trustProxy) } : {}),
    // A graceful stop serves what still arrives on an open connection (then closes it) rather than refuse it.
    return503OnClosing: false,
    bodyLimit: 32 * 1024,
    // Behind configured proxies request.ip is the client's (X-Forwarded-For); the per-address limits count by it.
    ...(options.trustProxy.length > 0 ? { trustProxy: options.trustProxy } : {}),
    // A wrong type is a client mistake to refuse, not to coerce into something the payer did not send.
    // Errors the router raises before any hook (a malformed URL, an over-long path parameter) are bad input too.
    frameworkErrors: (error, request, reply) => {
      // Answered before any hook: the request's id is echoed here as the hooks echo it everywhere else.
      void reply.header(REQUEST_ID_HEADER, request.id);
      if (request.method === 'GET' && isCheckoutLink(request.url)) return void pages.notFound(reply as FastifyReply);
      void (reply as FastifyReply).code(400).send({ success: false, error: error.message });
    },
    // Validators and serializers compiled once per process, not once per app (platform/schemaCompilers.ts).
    schemaController: { compilersFactory: onePerProcess },
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false, allowUnionTypes: true, ...validatorOptions } },
  });
  const store = await openStore({
    databaseUrl: options.databaseUrl,
    databasePath: options.databasePath,
    poolSize: options.databasePoolSize,
    borrowedPool: options.borrowedDatabasePool,
    now: options.now,
    migrations,
    log: (message, error, requestId) => app.log.error({ err: error, ...requestBinding(requestId) }, message),
  });
  const work = background((message, error) => (error ? app.log.error({ err: error }, message) : app.log.warn(message)));
  const running = workers((message, error) => app.log.error({ err: error }, message));
  app.decorate('store', store);
  app.decorate('appOptions', options);
  app.decorate('pages', pages);
  app.decorate('background', work);
  app.decorate('workers', running);
  app.addHook('onReady', async () => running.startAll());
  // Closing hooks run the last added first, and the listener closes before any (the requests in flight answered):
  // then every module's own, then this one: the workers, the work in the background, the database.
  app.addHook('onClose', async () => {
    await running.stopAll();
    await work.close();
    await store.close();
  });

  await operationsModule(app, options, { migrationNames: Object.keys(migrations) });
  await platformModule(app, options);
  const smsProvider = configuredSmsProvider(options);
  await accountsModule(app, options, { provider: smsProvider });
  await acquirerModule(app, options);
  await paymentsModule(app, options);
  await merchantModule(app, options);
  // The sandbox needs no network: its stand-ins take the place of the logos NSPK's host would give.
  await app.register(named(sbpBankRoutes), { options, ...(options.sandbox ? { standInLogos: standInLogos() } : {}) });
  await sandboxModule(app, options);
  // After the sandbox: the desk's mail goes to the sandbox's mail server when no SMTP_URL is set.
  await deskModule(app, options, { texts: smsProvider, profile });
  return app;
}
