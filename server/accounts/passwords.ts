import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (password: string, salt: Buffer, keylen: number, options: crypto.ScryptOptions) => Promise<Buffer>;

/** The production cost; tests pass a lower one through AppOptions.passwordCost to stay fast. */
export const DEFAULT_PASSWORD_COST = 16384;
/** The least cost the sandbox takes (PASSWORD_COST), for its tests' servers, and the most any deployment takes. */
export const SANDBOX_LEAST_PASSWORD_COST = 1024;
export const MOST_PASSWORD_COST = 1_048_576;

/** scrypt with a random salt; the parameters travel with the hash so they can be raised later. */
export async function hashPassword(password: string, cost: number = DEFAULT_PASSWORD_COST): Promise<string> {
  const params = { N: cost, r: 8, p: 1 };
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password, salt, 32, params);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return crypto.timingSafeEqual(actual, expected);
}

// No 0/O, 1/l/I: the payer types this password from an SMS.
const passwordAlphabet = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A new password for registration and restore: 10 characters from crypto.randomInt, about 58 bits. */
export function generatePassword(length = 10): string {
  let password = '';
  for (let i = 0; i < length; i++) password += passwordAlphabet[crypto.randomInt(passwordAlphabet.length)];
  return password;
}
