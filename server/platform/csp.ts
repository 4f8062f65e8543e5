import type { AppOptions } from '../config';
// One source of truth for the bank hosts: the page's widget loader and this policy must name the same origins.
import { BANK_HOSTS } from '../../src/widget/hosts';

const hcaptcha = ['https://hcaptcha.com', 'https://*.hcaptcha.com'];

/**
 * Content-Security-Policy of every response: no inline script; scripts only from this origin, hCaptcha and
 * the bank widget's host (in `local` the sandbox serves the widget from this origin); nobody may frame our
 * pages; violations are reported to /csp-report.
 */
export function contentSecurityPolicy(options: AppOptions): Record<string, string[]> {
  const provider = options.providerBase ? [new URL(options.providerBase).origin] : [];
  const widget = widgetOrigins(options);
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

/**
 * The bank widget's origins for the environment (both host families: bank-app pay and general), plus any given in
 * WIDGET_ORIGIN (comma-separated). In `local` the sandbox serves the widget from this origin: 'self' covers it.
 */
export function widgetOrigins(options: Pick<AppOptions, 'environment' | 'widgetOrigin'>): string[] {
  const env = options.environment;
  const fromEnvironment = env === 'local' || env === 'local-https' ? [] : [BANK_HOSTS.bankAppPay[env], BANK_HOSTS.general[env]];
  const extra = (options.widgetOrigin ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  return [...new Set([...fromEnvironment, ...extra].map((url) => new URL(url).origin))];
}
