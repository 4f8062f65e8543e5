/**
 * The message protocol between the checkout page and the bank-app pay widget, as the sandbox widget
 * speaks it (server/sandbox/sberpay-widget.js): plain objects `{ type, payload? }` through postMessage.
 *   widget -> page: GET_VERSION, GET_PARAMETERS, GET_ORDERID (questions, no payload), success, fail,
 *                   CLOSE_WIDGET, OPEN_LINK { link }
 *   page -> widget: the same GET_* types with the answer as payload
 */
export type WidgetQuestion = 'GET_VERSION' | 'GET_PARAMETERS' | 'GET_ORDERID';

export type WidgetMessage =
  | { type: WidgetQuestion; payload?: unknown }
  | { type: 'success'; payload?: { orderId?: string; bankInvoiceId?: string } }
  | { type: 'fail'; payload?: { orderId?: string; bankInvoiceId?: string; reason?: string } }
  | { type: 'CLOSE_WIDGET' }
  | { type: 'OPEN_LINK'; payload: { link: string } };

/** What this page answers to GET_VERSION. */
export const CLIENT_VERSION = 'checkout-1';

const known = new Set(['GET_VERSION', 'GET_PARAMETERS', 'GET_ORDERID', 'success', 'fail', 'CLOSE_WIDGET', 'OPEN_LINK']);

/** Narrows anything that came through postMessage to a widget message, or null. */
export function parseWidgetMessage(data: unknown): WidgetMessage | null {
  if (!data || typeof data !== 'object') return null;
  const type = (data as { type?: unknown }).type;
  if (typeof type !== 'string' || !known.has(type)) return null;
  if (type === 'OPEN_LINK') {
    const link = (data as { payload?: { link?: unknown } }).payload?.link;
    return typeof link === 'string' ? { type, payload: { link } } : null;
  }
  return data as WidgetMessage;
}

/** A question carries no payload; the same type with a payload is the widget's own answer to our question. */
export function isQuestion(message: WidgetMessage): message is { type: WidgetQuestion } {
  return (message.type === 'GET_VERSION' || message.type === 'GET_PARAMETERS' || message.type === 'GET_ORDERID') && !('payload' in message);
}

/** OPEN_LINK may open a bank app or a web page, never run script in ours. */
export function isSafeLink(link: string, base: string): boolean {
  try {
    const protocol = new URL(link, base).protocol;
    return !['javascript:', 'data:', 'vbscript:', 'blob:', 'file:'].includes(protocol);
  } catch {
    return false;
  }
}
