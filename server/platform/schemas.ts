/** JSON-schema pieces shared by the routes, so every route refuses the same bad input the same way. */
import { MANAGER_ID_PATTERN } from '../../src/services/pageConfig';

/** SPEC §5: 11 digits starting with 79. */
export const phoneSchema = { type: 'string', pattern: '^79[0-9]{9}$' } as const;

/** A captcha response (hCaptcha tokens run to a few kilobytes); '' and null mean none was given. */
export const captchaSchema = { type: ['string', 'null'], maxLength: 8192 } as const;

export const purposeSchema = { type: 'string', enum: ['forgot-password', 'register', 'use-points'] } as const;

/**
 * A bill's id (objectOID), checked against this one pattern before any use: in every route schema, the page route
 * and the sandbox. Demo bills (`demo-anon`) and their copies (`demo-anon-1a2b3c4d5e6f`) fit; so do account OIDs.
 */
export const OBJECT_OID_PATTERN = '^[A-Za-z0-9_-]{1,64}$';
const objectOidRegExp = new RegExp(OBJECT_OID_PATTERN);
export const isObjectOid = (value: string): boolean => objectOidRegExp.test(value);
export const objectOidSchema = { type: 'string', pattern: OBJECT_OID_PATTERN } as const;
export const nullableOidSchema = { type: ['string', 'null'], pattern: OBJECT_OID_PATTERN } as const;

/** A payment type's id (cardTypeOID, such as `demo-anon.ALL`): the bill's id, a dot and the type's code. */
export const cardTypeOidSchema = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}\\.[A-Za-z0-9_-]{1,32}$' } as const;

/** A payment attempt's order id (a UUID here; the acquirer's own ids look alike). */
export const orderIdSchema = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,100}$' } as const;

/**
 * The manager who brought the payer, from the manager_id cookie (SPEC §3). The page sends the cookie only when it
 * fits (src/services/pageConfig.ts), and the server ignores a cookie that does not.
 */
export const managerIdSchema = { type: ['string', 'null'], pattern: MANAGER_ID_PATTERN } as const;
const managerIdRegExp = new RegExp(MANAGER_ID_PATTERN);
export const isManagerId = (value: string): boolean => managerIdRegExp.test(value);

/**
 * A plausible e-mail (SPEC §5): one @, no spaces, a dotted domain, and no control or invisible formatting
 * characters (U+0000, U+202E and the like), which no address has and which only confuse what shows it.
 * /ajax/check-email/ and the receipt e-mail of /api/getPaymentUrl/ both use this rule.
 */
const emailPattern = /^[^\s@"<>()[\],;:]+@[A-Za-z0-9\u00a1-\uffff-]+(\.[A-Za-z0-9\u00a1-\uffff-]+)*\.[A-Za-z\u00a1-\uffff]{2,}$/;
const invisibleCharacters = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
export const isPlausibleEmail = (email: string): boolean => !invisibleCharacters.test(email) && emailPattern.test(email);

/** Letters (any script), spaces, hyphens and apostrophes: what a person's name is made of. */
export const personNameSchema = { type: 'string', minLength: 1, maxLength: 100, pattern: "^[\\p{L}\\p{M}][\\p{L}\\p{M}' .-]*$" } as const;

/** A body that must be empty or absent (the page posts some calls with no body at all). */
export const emptyBodySchema = { type: 'object', additionalProperties: false, maxProperties: 0 } as const;

/** A refusal's body, for the response schemas of routes that declare theirs: `{ success: false, error }`. */
export const failureSchema = {
  type: 'object',
  required: ['success', 'error'],
  properties: { success: { type: 'boolean', const: false }, error: { type: 'string' } },
} as const;

/**
 * Tighter per-client limits for the calls that send SMS, check secrets or create accounts, on top of the global
 * limit (@fastify/rate-limit reads `config.rateLimit`; with the global limit off, these are off too).
 */
export const sensitiveLimit = (max: number) => ({ rateLimit: { max, timeWindow: 60_000 } });

/** The refusal body of a call that may ask for the captcha (the page reads show_captcha at either level). */
export const refusal = (error: string, showCaptcha: boolean, extra: Record<string, unknown> = {}) => ({
  success: false,
  error,
  show_captcha: showCaptcha,
  json: { show_captcha: showCaptcha },
  ...extra,
});
