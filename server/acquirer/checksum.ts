import crypto from 'node:crypto';

/**
 * The acquirer's callback checksum: drop `checksum`, sort the rest by name, join as `name;value;`, HMAC-SHA256 with
 * the shop's callback key, upper-case hex.
 */
export function callbackChecksum(params: Record<string, string>, key: string): string {
  const text = Object.keys(params)
    .filter((name) => name !== 'checksum')
    .sort()
    .map((name) => `${name};${params[name]};`)
    .join('');
  return crypto.createHmac('sha256', key).update(text, 'utf8').digest('hex').toUpperCase();
}

/** A callback's checksum is right: compared case-insensitively and in constant time. */
export function checksumMatches(params: Record<string, string>, key: string): boolean {
  const given = params.checksum;
  if (typeof given !== 'string' || !/^[0-9a-fA-F]{64}$/.test(given)) return false;
  const expected = Buffer.from(callbackChecksum(params, key), 'utf8');
  return crypto.timingSafeEqual(Buffer.from(given.toUpperCase(), 'utf8'), expected);
}
