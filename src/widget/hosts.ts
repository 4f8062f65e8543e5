import type { PageConfig } from '../services/pageConfig';
import { bankAppWidgetOf, type BankAppWidget } from '../services/rules/paymentKinds';

/**
 * Where the bank-app pay widget lives, by environment. `local` (http and https) is this server's
 * own sandbox; the other environments use fixed bank hosts.
 *
 * THE BANK HOSTS BELOW ARE INVENTED PLACEHOLDERS: the real bank hosts are not given in the specification. They
 * are plausible names on the reserved `.example` domain, kept in this one module so that a deployment changes
 * one file (and server/csp.ts must allow the chosen host in script-src, frame-src and connect-src).
 */
export type WidgetEnvironment = PageConfig['environment'];

/** Two host families: one for the bank-app pay widget, another for the bank's general one (rules/paymentKinds.ts). */
export type WidgetFamily = BankAppWidget;

/** Desktop shows the widget in an iframe overlay; mobile leaves for the widget's full page. */
export type WidgetVariant = 'desktop' | 'mobile';

export interface WidgetHost {
  /** Origin of the widget; messages are accepted from it only. `null` means "the page's own origin" (sandbox). */
  origin: string | null;
  /** The widget page, per variant. */
  paths: Record<WidgetVariant, string>;
  /** The desktop Safari helper tab (/access-cookie on the widget host). */
  accessCookiePath: string;
}

const sandbox: WidgetHost = {
  origin: null,
  paths: { desktop: '/sandbox/sberpay/widget', mobile: '/sandbox/sberpay/widget' },
  accessCookiePath: '/sandbox/sberpay/access-cookie',
};

const bankPaths = (family: string): Pick<WidgetHost, 'paths' | 'accessCookiePath'> => ({
  paths: { desktop: `/${family}/widget/desktop`, mobile: `/${family}/widget/mobile` },
  accessCookiePath: '/access-cookie',
});

/** Invented placeholders (see above). */
export const BANK_HOSTS: Record<WidgetFamily, Record<'test' | 'preprod' | 'production', string>> = {
  bankAppPay: {
    test: 'https://sberpay-widget.test.bank.example',
    preprod: 'https://sberpay-widget.preprod.bank.example',
    production: 'https://sberpay-widget.bank.example',
  },
  general: {
    test: 'https://pay-widget.test.bank.example',
    preprod: 'https://pay-widget.preprod.bank.example',
    production: 'https://pay-widget.bank.example',
  },
};

/** The host family of a bank-app pay code. */
export const familyOf: (code: string) => WidgetFamily = bankAppWidgetOf;

export function widgetHost(environment: WidgetEnvironment, family: WidgetFamily): WidgetHost {
  if (environment === 'local' || environment === 'local-https') return sandbox;
  return { origin: BANK_HOSTS[family][environment], ...bankPaths(family === 'general' ? 'pay' : 'sberpay') };
}
