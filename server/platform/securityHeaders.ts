import type { AppOptions } from '../config';
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
 * JSON answers are never rendered as documents, so they carry the short list OWASP gives for REST answers instead
 * of the page's: a policy that forbids everything, no framing, no sniffing, no caching (a payment status must never
 * be answered from a cache), readable by this origin only, and HSTS under https. The document-only headers (referrer,
 * DNS prefetch, download options, the legacy XSS filter, origin clustering) mean nothing for them and cost bytes on
 * every status poll.
 */
export function apiSecurityHeaders(page: Record<string, string>): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    'cross-origin-resource-policy': 'same-origin',
    ...(page['strict-transport-security'] ? { 'strict-transport-security': page['strict-transport-security'] } : {}),
  };
}

/**
 * The calls that answer JSON (or the metrics' text): the API, the provider-host calls, the merchant API, the desk's
 * API (its CSV exports and logo too), the health checks and the metrics (a CSP report gets an empty 204).
 */
export const isApiUrl = (url: string) =>
  url.startsWith('/api/') || url.startsWith('/ajax/') || url.startsWith('/merchant/') || url.startsWith('/desk/api/') || url.startsWith('/health/') || url === '/metrics';
