import path from 'node:path';
import type pg from 'pg';
import { DEFAULT_PASSWORD_COST } from './accounts/passwords';
import type { FiscalSettings } from './billing/fiscalCodes';

export type Product = 'realty' | 'auto';
export type Environment = 'local' | 'local-https' | 'test' | 'preprod' | 'production';
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Whether a level writes the lines of every request (info and below it). */
export const logsRequests = (level: LogLevel): boolean => ['info', 'debug', 'trace'].includes(level);

/**
 * The hooks every request goes through that a benchmark may leave out, one at a time, to see what each costs
 * (`npm run bench -- --hooks`): the request ids (their id, context and header), the HTTP metrics, the closing
 * `Connection: close`, and the security headers.
 */
export const PER_REQUEST_HOOKS = ['request-ids', 'metrics', 'closing', 'security-headers'] as const;
export type PerRequestHook = (typeof PER_REQUEST_HOOKS)[number];

/** Everything the server can be told; tests pass their own, `main.ts` reads the environment. */
export interface AppOptions {
  /** PostgreSQL (`postgres://…`); when set, the store uses it and databasePath is ignored. */
  databaseUrl: string | null;
  /** SQLite file when there is no databaseUrl; ':memory:' for throwaway stores. */
  databasePath: string;
  /** PostgreSQL connections per server process. */
  databasePoolSize: number;
  /** A PostgreSQL pool the server borrows instead of opening its own, left open when it closes: tests only. */
  borrowedDatabasePool?: pg.Pool;
  /** Folder with the built page (index.html and assets). */
  distDir: string;
  /** Serve the sandbox of the outside parties (acquirer, bank apps, SMS, captcha, free call). */
  sandbox: boolean;
  product: Product;
  /** Where the provider-host calls (/ajax/{product}/…) live, as the page sees it; '' is same origin. */
  providerBase: string;
  environment: Environment;
  /** Public base URL of this server, used for return URLs handed to the acquirer and the widget. */
  publicUrl: string;
  hcaptchaSiteKey: string | null;
  hcaptchaSecret: string | null;
  /** Requests per minute per client address across the API; 0 turns the limit off (benchmarks). */
  rateLimitPerMinute: number;
  /**
   * The reverse proxies whose X-Forwarded-For names the client (TRUST_PROXY: their addresses or CIDR ranges). Behind a
   * proxy the client's address is otherwise the proxy's, and the per-address SMS caps and rate limits would count
   * every payer as one. Empty: trust nobody (no proxy in front).
   */
  trustProxy: string[];
  /** Milliseconds since the epoch; tests pass a fake clock. */
  now: () => number;
  logger: boolean;
  /** pino's level (LOG_LEVEL): 'warn' by default, so requests are not logged; 'info' logs each request, 'debug' more. */
  logLevel: LogLevel;
  /**
   * Per-request hooks left out, for measuring only: the benchmark's server (bench/checkout.ts) sets it; no variable of
   * `npm start` does, so a deployment always runs them all.
   */
  hooksOff: readonly PerRequestHook[];
  /** Who takes the money, shown in the page's header (MERCHANT_NAME). */
  merchantName: string;
  /** The merchant's support line and address in the header (MERCHANT_SUPPORT_PHONE, MERCHANT_SUPPORT_EMAIL); '' hides one. */
  merchantSupportPhone: string;
  merchantSupportEmail: string;
  /**
   * scrypt cost (N) for new password hashes. Production keeps the default; tests lower it only to stay fast,
   * because the cost travels inside each hash and verification reads it from there.
   */
  passwordCost: number;
  /**
   * How often the page asks for a payment's status and a free call's outcome, in ms; null leaves the page's own pace
   * (5000 ms). The browser journeys shorten it so that they do not wait on the payer's clock; nothing else sets it.
   */
  pagePollMs: number | null;
  /** The fetch used to call hCaptcha's siteverify; tests pass a fake one (no network here). */
  captchaFetch: typeof fetch;
  /** Origin of the bank-app pay widget outside `local` (allowed in the CSP); local uses the sandbox's own widget. */
  widgetOrigin: string | null;
  /** Where NSPK's fast-payment bank list is published (SBP_BANKS_URL): refreshed daily; null serves the shipped snapshot. */
  sbpBanksUrl: string | null;
  /** The fetch used for the bank list and the banks' logos; tests pass a fake one (no network here). */
  sbpFetch: typeof fetch;
  /**
   * Bearer keys of the merchant API (MERCHANT_API_KEYS, comma-separated). None with the sandbox on: a development key
   * is generated once, kept in the database and printed by `npm start`. None with the sandbox off: the API refuses all.
   */
  merchantApiKeys: string[];
  /** Merchant API requests per minute per key (MERCHANT_RATE_LIMIT_PER_MINUTE); 0 turns the limit off. */
  merchantRateLimitPerMinute: number;
  /** Where webhook events go (MERCHANT_WEBHOOK_URL); null: the sandbox's inbox when the sandbox is on, else nowhere. */
  webhookUrl: string | null;
  /** `whsec_` + base64 (MERCHANT_WEBHOOK_SECRET); null: generated once and kept in the database. */
  webhookSecret: string | null;
  /** Delays before each retry of a failed delivery (WEBHOOK_RETRY_SCHEDULE); after the last one the event has failed. */
  webhookRetryScheduleMs: number[];
  /** A delivery not answered in this time has failed (5 s). */
  webhookTimeoutMs: number;
  /** How often the delivery worker looks for due events when nothing woke it. */
  webhookPollMs: number;
  /** Run the delivery worker and the expiry sweep in this process (tests drive them by hand). */
  webhookWorker: boolean;
  /** The fetch webhooks are posted with; tests pass a fake one. */
  webhookFetch: typeof fetch;
  /**
   * The acquirer (README "Connecting a real acquirer"): its RBS REST base ending in `/payment/rest/`
   * (ACQUIRER_URL), the shop's credentials (ACQUIRER_USERNAME + ACQUIRER_PASSWORD, or ACQUIRER_TOKEN) and the key its
   * callbacks are signed with (ACQUIRER_CALLBACK_KEY). All null with the sandbox on: the sandbox's own RBS fake.
   */
  acquirerUrl: string | null;
  acquirerUserName: string | null;
  acquirerPassword: string | null;
  acquirerToken: string | null;
  acquirerCallbackKey: string | null;
  /** The fetch that reaches the acquirer (and the sandbox fake's callbacks); server tests route it into the app. */
  acquirerFetch: typeof fetch;
  /** Every acquirer call gives up after this long (ACQUIRER_TIMEOUT_MS, 10 s). */
  acquirerTimeoutMs: number;
  /**
   * The acquirer's fiscal API (receipts apart from a payment: the closing receipt at handover), ending in `/ofd/v1/`
   * (ACQUIRER_FISCAL_URL); null: beside ACQUIRER_URL (its `/payment/rest/` becomes `/ecomm/gw/partner/api/ofd/v1/`),
   * or the sandbox's fake. The same credentials.
   */
  acquirerFiscalUrl: string | null;
  /**
   * A receipt's fate is read no sooner than this after it was sent (FISCAL_STATUS_DELAY_MS; the gateway asks for about
   * 6 minutes, 360000): a lost doReceipt answer is settled then too.
   */
  fiscalStatusDelayMs: number;
  /** The order's session time-out handed to register.do: past it with nothing paid the attempt ends declined. */
  paymentSessionSecs: number;
  /**
   * The most one fast-payment (SBP) payment takes unless the merchant's bill says otherwise (SBP_PAYMENT_MAXIMUM, roubles
   * with two decimals: 1000000.00; some acquirers set 700000.00). A bill with parts is paid past it in several payments.
   */
  sbpPaymentMaximumKopecks: number;
  /** A poll of a pending attempt asks the acquirer when its status was last read longer ago than this. */
  reconcileAfterMs: number;
  /**
   * A hold (a bill that captures by hand) not captured or released this long after the money was held is released by
   * the server (HOLD_RELEASE_AFTER_MS, 6 days 12 hours: a card hold lives at most 7 days); the merchant is warned a day
   * before.
   */
  holdReleaseAfterMs: number;
  /** The sweeper reconciles pending attempts this often (and once on start); 0 turns it off (tests drive it). */
  sweepEveryMs: number;
  /**
   * The SMS and call-check provider (README "Connecting an SMS provider"): the SMS.ru account's key (SMSRU_API_ID), its
   * API base ending in `/` (SMSRU_URL, https://sms.ru/ when only the key is set) and the approved sender name
   * (SMSRU_FROM, none: the provider's default). Key and URL null with the sandbox on: the sandbox's own SMS.ru fake.
   */
  smsruApiId: string | null;
  smsruUrl: string | null;
  smsruFrom: string | null;
  /** The fetch that reaches the provider (and the sandbox fake's callbacks); server tests route it into the app. */
  smsruFetch: typeof fetch;
  /** Every provider call gives up after this long. */
  smsTimeoutMs: number;
  /** Delays before each retry of a text the provider did not take (down, time-out); none is sent past its code's life. */
  smsRetryScheduleMs: number[];
  /** How often the text worker looks for due texts and delivery statuses when nothing woke it. */
  smsPollMs: number;
  /** Run the text worker in this process (tests drive it by hand: app.texts). */
  smsWorker: boolean;
  /**
   * The fiscal receipt sent with every acquirer order (FISCAL_TAX_SYSTEM, FISCAL_DEFAULT_VAT,
   * FISCAL_DEFAULT_PAYMENT_METHOD, FISCAL_DEFAULT_PAYMENT_OBJECT, FISCAL_FFD). No tax system: orders carry no receipt.
   */
  fiscal: FiscalSettings;
  /** The bearer token `/metrics` asks for (METRICS_TOKEN); null: none asked (operations/metricsAccess.ts). */
  metricsToken: string | null;
  /** Serve `/metrics` on this port only, a second listener (METRICS_PORT); null: on the main port. */
  metricsPort: number | null;
  /** How long a graceful stop (SIGTERM, SIGINT) may take before the process exits anyway (SHUTDOWN_TIMEOUT_MS, 10 s). */
  shutdownTimeoutMs: number;
  /**
   * E-mail (README "Connecting a mail server"): the SMTP server's URL (SMTP_URL: `smtp://user:password@host:587` or
   * `smtps://…:465`) and the sender (MAIL_FROM). No URL with the sandbox on: the sandbox's own SMTP server; with it off,
   * the desk sends no e-mail.
   */
  smtpUrl: string | null;
  mailFrom: string;
  /** Every step of an SMTP exchange gives up after this long. */
  mailTimeoutMs: number;
  /** The port of the sandbox's SMTP server on 127.0.0.1 (SANDBOX_SMTP_PORT); 0: any free one. */
  sandboxSmtpPort: number;
  /** A desk session ends after this long without a request (DESK_IDLE_MINUTES, 30). */
  deskIdleMs: number;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** 5 s, 30 s, 2 min, 10 min, 1 h, then every 6 h for 3 days (Standard Webhooks' usual schedule). */
export const DEFAULT_RETRY_SCHEDULE_MS: number[] = [5 * SECOND, 30 * SECOND, 2 * MINUTE, 10 * MINUTE, HOUR, ...Array<number>(12).fill(6 * HOUR)];

/**
 * A text the provider did not take is tried again after 5 s, 15 s, 45 s, 2 min and 4 min: about 7 minutes in all, inside a
 * code's 10 minutes (a text is never sent past its code's life anyway).
 */
export const DEFAULT_SMS_RETRY_SCHEDULE_MS: number[] = [5 * SECOND, 15 * SECOND, 45 * SECOND, 2 * MINUTE, 4 * MINUTE];

export function defaultOptions(overrides: Partial<AppOptions> = {}): AppOptions {
  return {
    databaseUrl: null,
    databasePath: path.resolve('data/checkout.sqlite'),
    databasePoolSize: 10,
    distDir: path.resolve(__dirname, '..', 'dist'),
    sandbox: true,
    product: 'realty',
    providerBase: '',
    environment: 'local',
    publicUrl: 'http://localhost:3000',
    hcaptchaSiteKey: null,
    hcaptchaSecret: null,
    rateLimitPerMinute: 600,
    trustProxy: [],
    now: Date.now,
    logger: false,
    logLevel: 'warn',
    hooksOff: [],
    // The demo's merchant: a real deployment names its own (README, Configuration).
    merchantName: 'ООО «Демо Девелопмент»',
    merchantSupportPhone: '+7 (800) 555-01-00',
    merchantSupportEmail: 'support@example.com',
    passwordCost: DEFAULT_PASSWORD_COST,
    pagePollMs: null,
    captchaFetch: (input, init) => fetch(input, init),
    widgetOrigin: null,
    sbpBanksUrl: null,
    sbpFetch: (input, init) => fetch(input, init),
    merchantApiKeys: [],
    merchantRateLimitPerMinute: 300,
    webhookUrl: null,
    webhookSecret: null,
    webhookRetryScheduleMs: DEFAULT_RETRY_SCHEDULE_MS,
    webhookTimeoutMs: 5_000,
    webhookPollMs: 2_000,
    webhookWorker: true,
    webhookFetch: (input, init) => fetch(input, init),
    acquirerUrl: null,
    acquirerUserName: null,
    acquirerPassword: null,
    acquirerToken: null,
    acquirerCallbackKey: null,
    acquirerFetch: (input, init) => fetch(input, init),
    acquirerTimeoutMs: 10_000,
    acquirerFiscalUrl: null,
    fiscalStatusDelayMs: 360_000,
    paymentSessionSecs: 1200,
    sbpPaymentMaximumKopecks: 100_000_000,
    reconcileAfterMs: 3000,
    holdReleaseAfterMs: 561_600_000,
    sweepEveryMs: 60_000,
    smsruApiId: null,
    smsruUrl: null,
    smsruFrom: null,
    smsruFetch: (input, init) => fetch(input, init),
    smsTimeoutMs: 10_000,
    smsRetryScheduleMs: DEFAULT_SMS_RETRY_SCHEDULE_MS,
    smsPollMs: 2_000,
    smsWorker: true,
    // The sandbox runs with a tax system, so every demo payment carries a receipt; a deployment sets its own.
    fiscal: { taxSystem: 'osn', vat: 'none', paymentMethod: 'full_prepayment', paymentObject: 'commodity', ffd: '1.2' },
    metricsToken: null,
    metricsPort: null,
    shutdownTimeoutMs: 10_000,
    smtpUrl: null,
    mailFrom: 'Оплата счетов <no-reply@sandbox.local>',
    mailTimeoutMs: 10_000,
    sandboxSmtpPort: 0,
    deskIdleMs: 30 * MINUTE,
    ...overrides,
  };
}


/**
 * The sandbox's RBS fake as the product reaches it when no ACQUIRER_URL is set (sandbox/rbs.ts serves it): its REST
 * base under this server, and the shop's credentials there (a token works too).
 */
export const SANDBOX_ACQUIRER = {
  path: '/sandbox/rbs/payment/rest/',
  fiscalPath: '/sandbox/rbs/ecomm/gw/partner/api/ofd/v1/',
  credentials: { userName: 'sandbox-shop', password: 'sandbox-password' },
  token: 'sandbox-token',
} as const;

/**
 * What is missing to reach a real acquirer, or null when nothing is. With the sandbox on and no ACQUIRER_URL the
 * sandbox's own RBS fake is used; otherwise every variable must be there, and the server refuses to start without.
 */
export function acquirerConfigProblem(options: AppOptions): string | null {
  if (options.sandbox && !options.acquirerUrl) return null;
  if (!options.acquirerUrl) return 'ACQUIRER_URL is not set (the acquirer\'s RBS REST base, ending in /payment/rest/)';
  if (!/^https?:\/\/.+\/payment\/rest\/$/.test(options.acquirerUrl)) return 'ACQUIRER_URL must be an http(s) URL ending in /payment/rest/';
  if (!options.acquirerToken) {
    if (!options.acquirerUserName) return 'ACQUIRER_USERNAME is not set (or set ACQUIRER_TOKEN)';
    if (!options.acquirerPassword) return 'ACQUIRER_PASSWORD is not set (or set ACQUIRER_TOKEN)';
  }
  if (options.acquirerFiscalUrl && !/^https?:\/\/.+\/$/.test(options.acquirerFiscalUrl)) return 'ACQUIRER_FISCAL_URL must be an http(s) URL ending in /';
  if (!options.acquirerCallbackKey) return 'ACQUIRER_CALLBACK_KEY is not set (the key the acquirer signs its callbacks with)';
  return null;
}

/** SMS.ru's API base when only SMSRU_API_ID is set. */
export const SMSRU_DEFAULT_URL = 'https://sms.ru/';

/**
 * The sandbox's SMS.ru fake as the product reaches it when no SMSRU_API_ID is set (sandbox/smsru.ts serves it): its API
 * base under this server, and the account key it takes.
 */
export const SANDBOX_SMSRU = { path: '/sandbox/smsru/', apiId: 'sandbox-api-id' } as const;

/**
 * What is missing to reach a real SMS provider, or null when nothing is. With the sandbox on and neither SMSRU_API_ID
 * nor SMSRU_URL set the sandbox's own SMS.ru fake is used; otherwise the key must be there, and the server refuses to
 * start without it (codes, passwords and free calls would go nowhere).
 */
export function smsConfigProblem(options: AppOptions): string | null {
  if (options.sandbox && !options.smsruApiId && !options.smsruUrl) return null;
  if (!options.smsruApiId) return "SMSRU_API_ID is not set (the SMS.ru account's api_id)";
  if (options.smsruUrl && !/^https?:\/\/[^/]+(\/.*)?\/$/.test(options.smsruUrl)) return 'SMSRU_URL must be an http(s) URL ending in / (such as https://sms.ru/)';
  return null;
}

/** Where the acquirer's fiscal API is: ACQUIRER_FISCAL_URL, else beside the REST base (null: the sandbox's fake). */
export const fiscalUrlOf = (options: Pick<AppOptions, 'acquirerUrl' | 'acquirerFiscalUrl'>): string | null =>
  options.acquirerFiscalUrl ?? (options.acquirerUrl ? options.acquirerUrl.replace(/payment\/rest\/$/, 'ecomm/gw/partner/api/ofd/v1/') : null);
