import type { AppOptions } from './config';

const hcaptcha = ['https://hcaptcha.com', 'https://*.hcaptcha.com'];

/**
 * Content-Security-Policy of every response: no inline script; scripts only from this origin, hCaptcha and
 * the bank widget's host (in `local` the sandbox serves the widget from this origin); nobody may frame our
 * pages; violations are reported to /csp-report.
 */
export function contentSecurityPolicy(options: AppOptions): Record<string, string[]> {
  const provider = options.providerBase ? [new URL(options.providerBase).origin] : [];
  const widget = options.widgetOrigin ? [new URL(options.widgetOrigin).origin] : [];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...hcaptcha, ...widget],
    'style-src': ["'self'", ...hcaptcha],
    'img-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...provider, ...hcaptcha, ...widget],
    'frame-src': ["'self'", ...hcaptcha, ...widget],
    'frame-ancestors': ["'none'"],
    'form-action': ["'self'"],
    'base-uri': ["'self'"],
    'object-src': ["'none'"],
    'report-uri': ['/csp-report'],
  };
}
