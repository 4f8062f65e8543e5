/** The codes of the ways to pay a bill offers, as the bill data and the merchant API name them. */
export const paymentTypeCodes = ['ALL', 'SBP', 'SberPaySite', 'SberPaySiteP', 'AllSberP'] as const;
export type PaymentTypeCode = (typeof paymentTypeCodes)[number];

/**
 * How a way to pay is paid, which decides what the acquirer must answer and what the page does with it:
 * - `redirect`: a bank card (ALL) or the bank's own form (AllSberP): the browser is sent to the form's address;
 * - `fast payment`: the fast payment system (SBP): a QR and a bank-app link, then the page polls for the outcome;
 * - `bank-app pay`: the bank's app pay widget (SberPaySite, SberPaySiteP), opened with the bank's invoice.
 */
export type PaymentKind = 'redirect' | 'fast payment' | 'bank-app pay';

const kinds: Record<PaymentTypeCode, PaymentKind> = {
  ALL: 'redirect',
  AllSberP: 'redirect',
  SBP: 'fast payment',
  SberPaySite: 'bank-app pay',
  SberPaySiteP: 'bank-app pay',
};

export const paymentKindOf = (code: PaymentTypeCode): PaymentKind => kinds[code];

/** Which widget bank-app pay opens: SberPaySiteP goes through the bank's general pay widget, SberPaySite its own. */
export type BankAppWidget = 'bankAppPay' | 'general';

export const bankAppWidgetOf = (code: string): BankAppWidget => (code === 'SberPaySiteP' ? 'general' : 'bankAppPay');
