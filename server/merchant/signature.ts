/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): `webhook-signature: v1,<base64 HMAC-SHA256>` of
 * `${webhook-id}.${webhook-timestamp}.${body}` keyed with the secret's bytes (the base64 after `whsec_`), so a merchant
 * can verify with any Standard Webhooks library.
 */
import crypto from 'node:crypto';

/** A new secret: `whsec_` and 32 random bytes in base64. */
export const newWebhookSecret = (): string => `whsec_${crypto.randomBytes(32).toString('base64')}`;

const secretBytes = (secret: string): Buffer => Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');

/** The `webhook-signature` value of a message: `v1,` and the base64 HMAC. */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = crypto.createHmac('sha256', secretBytes(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three headers that go with a body. */
export function webhookHeaders(secret: string, id: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signWebhook(secret, id, timestampSeconds, body),
  };
}

/** How far a timestamp may be from the receiver's clock (Standard Webhooks: 5 minutes), against replays. */
export const TIMESTAMP_TOLERANCE_S = 5 * 60;

/**
 * Whether headers and body are a message signed with `secret`: any of the space-separated `v1,` signatures matches
 * (compared in constant time) and the timestamp is within the tolerance of `nowSeconds`.
 */
export function verifyWebhook(secret: string, headers: Record<string, string | string[] | undefined>, body: string, nowSeconds: number): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > TIMESTAMP_TOLERANCE_S) return false;
  const expected = Buffer.from(signWebhook(secret, id, Number(timestamp), body));
  return signatures.split(' ').some((given) => {
    const candidate = Buffer.from(given);
    return candidate.length === expected.length && crypto.timingSafeEqual(candidate, expected);
  });
}
