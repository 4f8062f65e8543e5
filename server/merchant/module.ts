/**
 * The merchant module: the API's keys (configured, or the sandbox's development key generated once and kept), the
 * webhook secret (configured, or generated once and kept), the delivery worker and the API itself under /merchant/v1.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppOptions } from '../config';
import { settingOnce } from '../platform/settings';
import { webhookUrlOf } from '../profile/profile';
import { MERCHANT_PREFIX, merchantApi } from './api';
import { outboxBacklog } from './outbox';
import { newWebhookSecret } from './signature';
import { webhookWorker, type WebhookWorker } from './worker';
import { named } from '../operations/named';
import { requestBinding } from '../operations/requestIds';

declare module 'fastify' {
  interface FastifyInstance {
    /** The merchant side: the sandbox's development API key (null when keys are configured), the webhooks. */
    merchant: {
      devApiKey: string | null;
      webhookSecret: string;
      /** The configured URL (MERCHANT_WEBHOOK_URL, or the sandbox's inbox). */
      webhookUrl: () => string | null;
      /** Where webhooks go now: the URL an admin set at the desk, else the configured one. */
      currentWebhookUrl: () => Promise<string | null>;
      worker: WebhookWorker;
    };
  }
}

export async function merchantModule(app: FastifyInstance, options: AppOptions): Promise<void> {
  const store = app.store;
  const devApiKey =
    options.merchantApiKeys.length === 0 && options.sandbox ? await settingOnce(store, 'merchant_dev_api_key', `sk_test_${crypto.randomBytes(24).toString('base64url')}`) : null;
  const webhookSecret = options.webhookSecret ?? (await settingOnce(store, 'webhook_secret', newWebhookSecret()));
  // The sandbox's inbox when no URL is set; its address follows the port `main.ts` listens on.
  const webhookUrl = () => options.webhookUrl ?? (options.sandbox ? `${app.appOptions.publicUrl}/sandbox/webhooks` : null);
  const currentWebhookUrl = () => webhookUrlOf(store, { webhookUrl });
  const worker = webhookWorker(store, {
    target: async () => {
      const url = await currentWebhookUrl();
      return url ? { url, secret: webhookSecret } : null;
    },
    retryScheduleMs: options.webhookRetryScheduleMs,
    timeoutMs: options.webhookTimeoutMs,
    pollMs: options.webhookPollMs,
    fetch: options.webhookFetch,
    log: (message, error, requestId) => app.log.warn({ err: error, ...requestBinding(requestId) }, message),
  });
  app.decorate('merchant', { devApiKey, webhookSecret, webhookUrl, currentWebhookUrl, worker });
  app.metrics.gauge('checkout_webhook_outbox_backlog', 'Webhook events waiting to be delivered (due now or retrying later)', async () => (await outboxBacklog(store)).pending);
  app.metrics.gauge('checkout_webhook_outbox_oldest_age_seconds', 'How long the oldest webhook event still waiting has waited (0: none waits)', async () => {
    const oldest = (await outboxBacklog(store)).oldestCreatedAt;
    return oldest === null ? 0 : Math.max(0, (store.now() - oldest) / 1000);
  });
  // Deliveries and the expiry sweep start with the server (tests that drive them by hand turn them off); stopping
  // aborts a delivery in flight, recorded as failed and retried later.
  app.workers.add('webhook deliveries', { ...(options.webhookWorker ? { start: () => worker.start() } : {}), stop: () => worker.stop() });

  await app.register(named(merchantApi), { prefix: MERCHANT_PREFIX, options, keys: devApiKey ? [devApiKey] : options.merchantApiKeys });
}
