import type { AppOptions } from './config';

const hcaptcha = ['https://hcaptcha.com', 'https://*.hcaptcha.com'];

/**
 * Content-Security-Policy of every response: no inline script; scripts only from this origin, hCaptcha and
 * the bank widget's host; nobody may frame our pages.
 */
export function contentSecurityPolicy(options: AppOptions): Record<string, string[]> {
  const provider = options.providerBase ? [new URL(options.providerBase).origin] : [];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...hcaptcha],
    'style-src': ["'self'", ...hcaptcha],
    'img-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...provider, ...hcaptcha],
    'frame-src': ["'self'", ...hcaptcha],
    'frame-ancestors': ["'none'"],
    'form-action': ["'self'"],
    'base-uri': ["'self'"],
    'object-src': ["'none'"],
  };
}
