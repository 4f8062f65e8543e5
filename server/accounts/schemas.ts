/** JSON-schema pieces of the account and code routes, and the refusal bodies they share. */
import type { FastifyReply } from 'fastify';
import { codePurposes } from '../../src/services/rules/codePurposes';
import { TEXT_LINE } from '../../src/services/rules/freeText';
import { fieldWords } from '../platform/schemas';

/** A captcha response (hCaptcha tokens run to a few kilobytes); '' and null mean none was given. */
export const captchaSchema = { type: ['string', 'null'], maxLength: 8192, format: TEXT_LINE } as const;

export const purposeSchema = { type: 'string', enum: codePurposes } as const;

/**
 * Letters (any script), spaces, hyphens and apostrophes: what a person's name is made of (one line of text, as any
 * free text); refused with the page's words for that name.
 */
const personNameSchema = <const W extends string>(fieldMessage: W) =>
  ({ type: 'string', minLength: 1, maxLength: 100, format: TEXT_LINE, pattern: "^[\\p{L}\\p{M}][\\p{L}\\p{M}' .-]*$", fieldMessage }) as const;
export const surnameSchema = personNameSchema(fieldWords.surnameRequired);
export const givenNameSchema = personNameSchema(fieldWords.nameRequired);
export const patronymicSchema = personNameSchema(fieldWords.patronymicRequired);

/** An e-mail address as a page's call takes it: one line; the address's own rule is isPlausibleEmail's. */
export const emailSchema = { type: 'string', maxLength: 254, format: TEXT_LINE, fieldMessage: fieldWords.emailFormat } as const;

/** A password typed at sign-in: one line. */
export const passwordSchema = { type: 'string', minLength: 1, maxLength: 200, format: TEXT_LINE, fieldMessage: fieldWords.passwordRequired } as const;

/** A body that must be empty or absent (the page posts some calls with no body at all). */
export const emptyBodySchema = { type: 'object', additionalProperties: false, maxProperties: 0 } as const;

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

/**
 * The body of a refusal because the provider did not take a text (a code or a password). `sms_failed` tells the page
 * which of its own words to show; the server's are the same, for the console.
 */
export const textNotSentBody = (showCaptcha: boolean) => refusal('Не удалось отправить СМС. Попробуйте ещё раз через минуту', showCaptcha, { sms_failed: true });

/** The provider did not take a text: 503, to try again in a minute. */
export const textNotSent = (reply: FastifyReply, showCaptcha: boolean) => reply.code(503).header('retry-after', '60').send(textNotSentBody(showCaptcha));
