import type { AppOptions } from '../config';
import type { Store } from '../store/store';
import { guardOf } from './codeQueries';

/**
 * The token the page's dev stand-in captcha ('Я не робот', shown when no HCAPTCHA_SITEKEY is configured) sends.
 * It is hCaptcha's documented test response, so the same value also passes hCaptcha's own test keys.
 * Only the sandbox accepts it; with HCAPTCHA_SECRET set, only a real siteverify answer counts.
 */
export const DEV_CAPTCHA_TOKEN = '10000000-aaaa-bbbb-cccc-000000000001';

export const SITEVERIFY_URL = 'https://api.hcaptcha.com/siteverify';

/** Answers whether a captcha response proves a person; never throws (a failing verifier is a "no"). */
export type CaptchaVerifier = (token: string | null | undefined, remoteIp: string) => Promise<boolean>;

export function createCaptchaVerifier(options: Pick<AppOptions, 'hcaptchaSecret' | 'hcaptchaSiteKey' | 'sandbox' | 'captchaFetch'>): CaptchaVerifier {
  const secret = options.hcaptchaSecret;
  if (secret) {
    return async (token, remoteIp) => {
      if (!token) return false;
      const form = new URLSearchParams({ secret, response: token, remoteip: remoteIp });
      if (options.hcaptchaSiteKey) form.set('sitekey', options.hcaptchaSiteKey);
      try {
        const response = await options.captchaFetch(SITEVERIFY_URL, { method: 'POST', body: form, signal: AbortSignal.timeout(5000) });
        if (!response.ok) return false;
        const verdict = (await response.json()) as { success?: unknown };
        return verdict.success === true;
      } catch {
        return false;
      }
    };
  }
  // Without a secret there is nobody to ask: the sandbox's stand-in is the only captcha, and without the
  // sandbox no token can pass (a misconfigured production must not wave robots through).
  return async (token) => options.sandbox && token === DEV_CAPTCHA_TOKEN;
}

/**
 * Whether a call about this phone lacks the captcha its guard demands (after a failure or a burst): none given, or one
 * that does not prove a person.
 */
export async function captchaMissing(store: Store, verifyCaptcha: CaptchaVerifier, phone: string, captcha: string | null | undefined, remoteIp: string): Promise<boolean> {
  return (await guardOf(store, phone)).captcha_required === 1 && !(captcha && (await verifyCaptcha(captcha, remoteIp)));
}
