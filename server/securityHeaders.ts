import type { AppOptions } from './config';
import { contentSecurityPolicy } from './csp';

/**
 * The security headers of every response, computed once: the policy is the same for every request, so building it
 * per response (as a general middleware does) is wasted work on the hottest route, the status poll. A route that
 * needs another policy (the sandbox widget page, framed by this origin) sets its own header over this one.
 */
export function pageSecurityHeaders(options: Pick<AppOptions, 'environment' | 'widgetOrigin' | 'providerBase' | 'publicUrl'>): Record<string, string> {
  const csp = Object.entries(contentSecurityPolicy(options as AppOptions))
    .map(([directive, sources]) => `${directive} ${sources.join(' ')}`)
    .join('; ');
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'SAMEORIGIN',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
    // HSTS only means something over https; on plain http browsers ignore it anyway.
    ...(options.publicUrl.startsWith('https:') ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}

/**
 * JSON answers are never rendered as documents, so their policy forbids everything: shorter than the page's and
 * stricter (the usual practice for APIs). The rest of the headers are the page's.
 */
export function apiSecurityHeaders(page: Record<string, string>): Record<string, string> {
  return { ...page, 'content-security-policy': "default-src 'none'; frame-ancestors 'none'", 'x-frame-options': 'DENY' };
}

/** Answers JSON only: the API, the provider-host calls and the CSP report endpoint. */
export const isApiUrl = (url: string) => url.startsWith('/api/') || url.startsWith('/ajax/');
