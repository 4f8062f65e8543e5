/**
 * The acquirer module: the adapter to the acquirer (the configured bank, or the sandbox's RBS fake), the gateway Pay
 * and reconciliation go through, its sweep, and the acquirer's callback.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { fiscalUrlOf, SANDBOX_ACQUIRER, type AppOptions } from '../config';
import { recordAcquirerCall } from '../operations/metrics';
import type { Gateway } from '../payments/gatewayPort';
import { every } from '../platform/jobs';
import { settingOnce } from '../platform/settings';
import { acquirerCallbackRoutes } from './callback';
import { recordExchange } from './exchanges';
import { rbsFiscal } from './fiscal';
import { createGateway } from './gateway';
import { rbsAcquirer, rbsClient, type RbsOptions } from './rbs';
import { named } from '../operations/named';
import { requestBinding } from '../operations/requestIds';

declare module 'fastify' {
  interface FastifyInstance {
    /** The acquirer gateway: Pay, reconciliation, refunds. */
    gateway: Gateway;
    /** The key the acquirer's callbacks are signed with (ACQUIRER_CALLBACK_KEY, or the sandbox's, generated once). */
    callbackKey: () => Promise<string>;
  }
}

export async function acquirerModule(app: FastifyInstance, options: AppOptions): Promise<void> {
  const store = app.store;
  const log = (message: string, error?: unknown, requestId?: string | null) =>
    error ? app.log.error({ err: error, ...requestBinding(requestId) }, message) : app.log.warn(requestBinding(requestId), message);
  let key: Promise<string> | null = null;
  // With the sandbox's fake the key is generated once and kept in the database, so the fake and every process agree.
  const callbackKey = () =>
    (key ??= options.acquirerCallbackKey ? Promise.resolve(options.acquirerCallbackKey) : settingOnce(store, 'sandbox_rbs_callback_key', crypto.randomBytes(32).toString('hex')));
  const rbsOptions: Omit<RbsOptions, 'baseUrl'> = {
    credentials: options.acquirerUrl
      ? options.acquirerToken
        ? { token: options.acquirerToken }
        : { userName: options.acquirerUserName!, password: options.acquirerPassword! }
      : SANDBOX_ACQUIRER.credentials,
    fetch: options.acquirerFetch,
    timeoutMs: options.acquirerTimeoutMs,
    onExchange: (exchange) => {
      recordAcquirerCall(exchange.method, exchange.outcome === 'remote' ? 'refused' : exchange.outcome, exchange.ms);
      return recordExchange(store, exchange);
    },
  };
  // The sandbox's fake is this server: its URL is known only after listen (PORT=0), so it is read on every call.
  const acquirer = rbsAcquirer(rbsClient({ ...rbsOptions, baseUrl: options.acquirerUrl ?? (() => `${options.publicUrl}${SANDBOX_ACQUIRER.path}`) }));
  const fiscalUrl = fiscalUrlOf(options);
  const fiscal = rbsFiscal({ ...rbsOptions, baseUrl: fiscalUrl ?? (() => `${options.publicUrl}${SANDBOX_ACQUIRER.fiscalPath}`) });
  const gateway = createGateway({ store, acquirer, fiscal, options, background: app.background, log });
  app.decorate('gateway', gateway);
  app.decorate('callbackKey', callbackKey);

  // A lost callback never leaves a paid payer waiting: pending attempts are reconciled on start and every minute.
  if (options.sweepEveryMs > 0) {
    const sweep = () => app.background.run('acquirer sweep', () => gateway.sweep());
    every(app, options.sweepEveryMs, sweep);
    app.addHook('onReady', async () => sweep());
  }
  await app.register(named(acquirerCallbackRoutes));
}
