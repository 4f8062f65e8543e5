import type { WidgetHost, WidgetVariant } from './hosts';
import { returnUrls, type PaymentIds } from './returnUrls';

export { returnUrls, type PaymentIds };

/** The widget's parameters, handed to the widget in its URL and again when it asks (GET_PARAMETERS). */
export interface WidgetParameters {
  bankInvoiceId: string;
  /** Where the widget sends the payer when they close it on a phone (state=return). */
  backUrl: string;
  orderId: string;
  successUrl: string;
  failUrl: string;
  /** The checkout page's address: the widget answers to its origin only. */
  href: string;
  host: string;
  isSafariDesktop: boolean;
}

export function widgetParameters(location: { href: string; origin: string }, ids: PaymentIds, isSafariDesktop: boolean): WidgetParameters {
  return {
    bankInvoiceId: ids.bankInvoiceId,
    orderId: ids.orderId,
    ...returnUrls(location.origin, ids),
    href: location.href,
    host: location.origin,
    isSafariDesktop,
  };
}

/** Base64 of the UTF-8 JSON (the parameter bundle the widget decodes; btoa alone cannot take Cyrillic). */
export function encodeParameters(params: WidgetParameters): string {
  const bytes = new TextEncoder().encode(JSON.stringify(params));
  let binary = '';
  bytes.forEach((byte) => (binary += String.fromCharCode(byte)));
  return btoa(binary);
}

export function decodeParameters(encoded: string): WidgetParameters {
  const binary = atob(encoded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes)) as WidgetParameters;
}

/** The widget's origin: the bank host's, or the page's own for the sandbox. */
export function widgetOrigin(host: WidgetHost, pageOrigin: string): string {
  return host.origin ?? pageOrigin;
}

/** The widget page's URL: platform=desktop on desktop, orderId and params. */
export function widgetUrl(host: WidgetHost, pageOrigin: string, variant: WidgetVariant, params: WidgetParameters): string {
  const query = new URLSearchParams();
  if (variant === 'desktop') query.set('platform', 'desktop');
  query.set('orderId', params.orderId);
  query.set('params', encodeParameters(params));
  return `${widgetOrigin(host, pageOrigin)}${host.paths[variant]}?${query.toString()}`;
}

export function accessCookieUrl(host: WidgetHost, pageOrigin: string): string {
  return `${widgetOrigin(host, pageOrigin)}${host.accessCookiePath}`;
}
