/**
 * A test event, sent at once to a webhook URL when the merchant asks (the desk's 'Отправить тестовое событие'): signed
 * as every event is, so the merchant's receiver checks its signature too. It is not queued and not retried: the
 * answer (or the failure) goes back to whoever asked.
 */
import crypto from 'node:crypto';
import { sortableId } from '../platform/ids';
import { webhookHeaders } from './signature';

export const TEST_EVENT_TYPE = 'webhook.test';

export interface TestDelivery {
  url: string;
  eventId: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export async function sendTestEvent(
  target: { url: string; secret: string },
  options: { fetch: typeof fetch; timeoutMs: number; now: number; merchantName: string },
): Promise<TestDelivery> {
  const eventId = sortableId('msg', options.now);
  const body = JSON.stringify({
    id: eventId,
    type: TEST_EVENT_TYPE,
    createdAt: new Date(options.now).toISOString(),
    data: { test: true, merchant: options.merchantName, nonce: crypto.randomBytes(8).toString('hex') },
  });
  const started = performance.now();
  try {
    const response = await options.fetch(target.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'checkout-webhooks/1', ...webhookHeaders(target.secret, eventId, Math.floor(options.now / 1000), body) },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    await response.body?.cancel().catch(() => {});
    return { url: target.url, eventId, statusCode: response.status, error: null, durationMs: Math.round(performance.now() - started) };
  } catch (error) {
    const name = (error as { name?: unknown } | null)?.name;
    const message = name === 'TimeoutError' ? `no answer in ${options.timeoutMs} ms` : error instanceof Error ? error.message : String(error);
    return { url: target.url, eventId, statusCode: null, error: message.slice(0, 500), durationMs: Math.round(performance.now() - started) };
  }
}
