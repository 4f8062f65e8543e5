export interface PaymentIds {
  bankInvoiceId: string;
  orderId: string;
  billOid: string;
}

/**
 * The return URLs on the product's pay site: the result page, carrying the order for its status poll
 * and `state` (success or return) with `bankInvoiceId`. What counts is the status the result page polls, never
 * `state` itself. A module of its own: the page needs it even when the widget's code could not be loaded.
 */
export function returnUrls(siteOrigin: string, ids: PaymentIds) {
  const url = (path: string, state: 'success' | 'return') => {
    const query = new URLSearchParams({ orderId: ids.orderId, billOid: ids.billOid, state, bankInvoiceId: ids.bankInvoiceId });
    return `${siteOrigin}${path}?${query.toString()}`;
  };
  return { successUrl: url('/success', 'success'), failUrl: url('/fail', 'return'), backUrl: url('/success', 'return') };
}
