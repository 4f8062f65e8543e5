/**
 * The server's settings read from the process environment: each variable parsed, and a wrong one stops the start
 * saying which it is. What the settings are and their defaults stand in config.ts.
 */
import path from 'node:path';
import { DEFAULT_PASSWORD_COST, MOST_PASSWORD_COST, SANDBOX_LEAST_PASSWORD_COST } from './accounts/passwords';
import { parseMoney } from './platform/money';
import { FFD_VERSIONS, isNameIn, namesOf, PAYMENT_METHOD_CODES, PAYMENT_OBJECT_CODES, TAX_SYSTEM_CODES, VAT_CODES, type FiscalSettings } from './billing/fiscalCodes';
import { defaultOptions, LOG_LEVELS, type AppOptions, type Environment, type LogLevel } from './config';

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** WEBHOOK_RETRY_SCHEDULE: durations separated by commas, each a number with ms, s, m or h ("100ms,1s,5m"). */
export function retryScheduleFrom(value: string): number[] {
  return value.split(',').map((part) => {
    const match = /^\s*(\d+)\s*(ms|s|m|h)\s*$/.exec(part);
    if (!match) throw new Error(`WEBHOOK_RETRY_SCHEDULE: "${part}" is not a duration such as 500ms, 5s, 2m or 1h`);
    return Number(match[1]) * DURATION_UNITS[match[2]!]!;
  });
}

/** MERCHANT_WEBHOOK_SECRET must be `whsec_` and base64 of at least 24 bytes (Standard Webhooks). */
export function webhookSecretFrom(value: string | undefined): string | null {
  if (!value) return null;
  const bytes = value.startsWith('whsec_') ? Buffer.from(value.slice(6), 'base64') : Buffer.alloc(0);
  if (bytes.length < 24) throw new Error('MERCHANT_WEBHOOK_SECRET must be whsec_ followed by base64 of at least 24 random bytes');
  return value;
}

/** DATABASE_URL selects PostgreSQL; anything but a postgres:// (or postgresql://) URL is a mistake to stop at. */
function databaseUrlFrom(value: string | undefined): string | null {
  if (!value) return null;
  if (!/^postgres(ql)?:\/\//.test(value)) throw new Error('DATABASE_URL must be a postgres:// URL (unset it to use the SQLite file at DATABASE_PATH)');
  return value;
}

/** A setting of money: roubles with two decimals ("1000000.00"), more than zero, in kopecks; anything else stops the start. */
export function moneySettingFrom(name: string, value: string): number {
  const kopecks = parseMoney(value.trim());
  if (kopecks === undefined || kopecks <= 0) throw new Error(`${name} must be roubles with two decimals, more than 0 (such as 1000000.00; it is "${value}")`);
  return kopecks;
}

/** TRUST_PROXY: the proxies' addresses and CIDR ranges, separated by commas ("127.0.0.1,10.0.0.0/8"). */
export const trustProxyFrom = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

/** One FISCAL_* value: the default when unset, else a name of its table; anything else stops the start. */
function fiscalName<T extends object>(env: NodeJS.ProcessEnv, name: string, table: T, fallback: keyof T & string): keyof T & string {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  if (!isNameIn(table, value)) throw new Error(`${name} must be one of ${namesOf(table).join(', ')} (it is "${value}")`);
  return value;
}

/**
 * The fiscal settings from FISCAL_*. FISCAL_TAX_SYSTEM unset: a receipt goes with every order in the sandbox (osn),
 * none without it; `none` turns receipts off anywhere.
 */
export function fiscalFrom(env: NodeJS.ProcessEnv, sandbox: boolean): FiscalSettings {
  const taxSystem = env.FISCAL_TAX_SYSTEM === 'none' ? null : env.FISCAL_TAX_SYSTEM ? fiscalName(env, 'FISCAL_TAX_SYSTEM', TAX_SYSTEM_CODES, 'osn') : sandbox ? 'osn' : null;
  const ffd = env.FISCAL_FFD || '1.2';
  if (!(FFD_VERSIONS as readonly string[]).includes(ffd)) throw new Error(`FISCAL_FFD must be one of ${FFD_VERSIONS.join(', ')} (it is "${ffd}")`);
  return {
    taxSystem,
    vat: fiscalName(env, 'FISCAL_DEFAULT_VAT', VAT_CODES, 'none'),
    paymentMethod: fiscalName(env, 'FISCAL_DEFAULT_PAYMENT_METHOD', PAYMENT_METHOD_CODES, 'full_prepayment'),
    paymentObject: fiscalName(env, 'FISCAL_DEFAULT_PAYMENT_OBJECT', PAYMENT_OBJECT_CODES, 'commodity'),
    ffd: ffd as FiscalSettings['ffd'],
  };
}

/** A whole number of milliseconds or a port from the environment, or the start stops and says which variable is wrong. */
function wholeNumberFrom(env: NodeJS.ProcessEnv, name: string, least: number, most: number): number | null {
  const value = env[name];
  if (value === undefined || value === '') return null;
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < least || number > most) throw new Error(`${name} must be a whole number from ${least} to ${most} (it is "${value}")`);
  return number;
}

/** METRICS_TOKEN: 16 or more printable characters without spaces (it travels as a bearer token). */
export function metricsTokenFrom(value: string | undefined): string | null {
  if (!value) return null;
  if (!/^[\x21-\x7e]{16,200}$/.test(value)) throw new Error('METRICS_TOKEN must be 16 to 200 printable characters without spaces');
  return value;
}

/**
 * The operations settings: the metrics' guard, the graceful stop's time-out, the acquirer's time-out, a hold's life, and
 * how long after sending a receipt its fate is read (FISCAL_STATUS_DELAY_MS: the gateway asks for about 6 minutes, the
 * default).
 */
export function operationsFrom(env: NodeJS.ProcessEnv): Partial<AppOptions> {
  const shutdownTimeoutMs = wholeNumberFrom(env, 'SHUTDOWN_TIMEOUT_MS', 1, 3_600_000);
  const acquirerTimeoutMs = wholeNumberFrom(env, 'ACQUIRER_TIMEOUT_MS', 100, 120_000);
  // At most 7 days: the acquirer ends a card hold by itself then.
  const holdReleaseAfterMs = wholeNumberFrom(env, 'HOLD_RELEASE_AFTER_MS', 60_000, 7 * 24 * 3_600_000);
  const fiscalStatusDelayMs = wholeNumberFrom(env, 'FISCAL_STATUS_DELAY_MS', 0, 86_400_000);
  return {
    metricsToken: metricsTokenFrom(env.METRICS_TOKEN),
    metricsPort: wholeNumberFrom(env, 'METRICS_PORT', 0, 65_535),
    ...(shutdownTimeoutMs !== null ? { shutdownTimeoutMs } : {}),
    ...(acquirerTimeoutMs !== null ? { acquirerTimeoutMs } : {}),
    ...(holdReleaseAfterMs !== null ? { holdReleaseAfterMs } : {}),
    ...(fiscalStatusDelayMs !== null ? { fiscalStatusDelayMs } : {}),
  };
}

/**
 * The mail settings from SMTP_URL, MAIL_FROM, SANDBOX_SMTP_PORT and DESK_IDLE_MINUTES. SMTP_URL is optional (without it
 * and the sandbox, the desk sends no e-mail), but when set it must be an smtp(s) URL, and a real server needs a real
 * sender in MAIL_FROM: the start stops and says which variable is wrong.
 */
export function mailFrom(env: NodeJS.ProcessEnv): Partial<AppOptions> {
  const port = wholeNumberFrom(env, 'SANDBOX_SMTP_PORT', 0, 65_535);
  const idleMinutes = wholeNumberFrom(env, 'DESK_IDLE_MINUTES', 1, 24 * 60);
  const smtpUrl = env.SMTP_URL || null;
  if (smtpUrl && !/^smtps?:\/\/[^/]+/.test(smtpUrl)) throw new Error('SMTP_URL must be an smtp:// or smtps:// URL (such as smtp://user:password@mail.example.com:587)');
  if (smtpUrl && !env.MAIL_FROM) throw new Error('MAIL_FROM is not set (the sender of the letters, such as "Оплата счетов <billing@example.com>")');
  return {
    smtpUrl,
    ...(env.MAIL_FROM ? { mailFrom: env.MAIL_FROM } : {}),
    ...(port !== null ? { sandboxSmtpPort: port } : {}),
    ...(idleMinutes !== null ? { deskIdleMs: idleMinutes * 60_000 } : {}),
  };
}

/**
 * PASSWORD_COST: scrypt's cost for the passwords hashed from now on (each hash keeps its own, so older ones still sign
 * in): a power of two from the production 16384 up to 1048576. The sandbox takes it down to 1024, for its tests'
 * servers; a real deployment never hashes below the production cost.
 */
export function passwordCostFrom(env: NodeJS.ProcessEnv, sandbox: boolean): Partial<AppOptions> {
  const least = sandbox ? SANDBOX_LEAST_PASSWORD_COST : DEFAULT_PASSWORD_COST;
  const cost = wholeNumberFrom(env, 'PASSWORD_COST', least, MOST_PASSWORD_COST);
  if (cost === null) return {};
  if ((cost & (cost - 1)) !== 0) throw new Error(`PASSWORD_COST must be a power of two from ${least} to ${MOST_PASSWORD_COST} (it is "${cost}")`);
  return { passwordCost: cost };
}

/** Options from the process environment (see README for the variables). */
export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): AppOptions {
  const port = Number(env.PORT ?? 3000);
  return defaultOptions({
    databaseUrl: databaseUrlFrom(env.DATABASE_URL),
    databasePath: path.resolve(env.DATABASE_PATH ?? 'data/checkout.sqlite'),
    ...(env.DATABASE_POOL_SIZE ? { databasePoolSize: Number(env.DATABASE_POOL_SIZE) } : {}),
    ...(env.DIST_DIR ? { distDir: path.resolve(env.DIST_DIR) } : {}),
    sandbox: env.SANDBOX !== '0',
    product: env.PRODUCT === 'auto' ? 'auto' : 'realty',
    providerBase: env.PROVIDER_BASE ?? '',
    environment: (env.APP_ENV as Environment | undefined) ?? 'local',
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${port}`,
    hcaptchaSiteKey: env.HCAPTCHA_SITEKEY || null,
    hcaptchaSecret: env.HCAPTCHA_SECRET || null,
    ...(env.RATE_LIMIT_PER_MINUTE ? { rateLimitPerMinute: Number(env.RATE_LIMIT_PER_MINUTE) } : {}),
    trustProxy: trustProxyFrom(env.TRUST_PROXY),
    logger: env.LOG !== '0',
    ...(LOG_LEVELS.includes(env.LOG_LEVEL as LogLevel) ? { logLevel: env.LOG_LEVEL as LogLevel } : {}),
    ...(env.MERCHANT_NAME ? { merchantName: env.MERCHANT_NAME } : {}),
    ...(env.MERCHANT_SUPPORT_PHONE !== undefined ? { merchantSupportPhone: env.MERCHANT_SUPPORT_PHONE } : {}),
    ...(env.MERCHANT_SUPPORT_EMAIL !== undefined ? { merchantSupportEmail: env.MERCHANT_SUPPORT_EMAIL } : {}),
    widgetOrigin: env.WIDGET_ORIGIN || null,
    sbpBanksUrl: env.SBP_BANKS_URL || null,
    merchantApiKeys: (env.MERCHANT_API_KEYS ?? '')
      .split(',')
      .map((key) => key.trim())
      .filter(Boolean),
    ...(env.MERCHANT_RATE_LIMIT_PER_MINUTE ? { merchantRateLimitPerMinute: Number(env.MERCHANT_RATE_LIMIT_PER_MINUTE) } : {}),
    webhookUrl: env.MERCHANT_WEBHOOK_URL || null,
    webhookSecret: webhookSecretFrom(env.MERCHANT_WEBHOOK_SECRET),
    ...(env.WEBHOOK_RETRY_SCHEDULE ? { webhookRetryScheduleMs: retryScheduleFrom(env.WEBHOOK_RETRY_SCHEDULE) } : {}),
    acquirerUrl: env.ACQUIRER_URL || null,
    acquirerUserName: env.ACQUIRER_USERNAME || null,
    acquirerPassword: env.ACQUIRER_PASSWORD || null,
    acquirerToken: env.ACQUIRER_TOKEN || null,
    acquirerCallbackKey: env.ACQUIRER_CALLBACK_KEY || null,
    acquirerFiscalUrl: env.ACQUIRER_FISCAL_URL || null,
    ...(env.SBP_PAYMENT_MAXIMUM ? { sbpPaymentMaximumKopecks: moneySettingFrom('SBP_PAYMENT_MAXIMUM', env.SBP_PAYMENT_MAXIMUM) } : {}),
    smsruApiId: env.SMSRU_API_ID || null,
    smsruUrl: env.SMSRU_URL || null,
    smsruFrom: env.SMSRU_FROM || null,
    fiscal: fiscalFrom(env, env.SANDBOX !== '0'),
    // The sandbox's own acquirer registers a receipt at once: its fate is read after 10 s, not the bank's 6 minutes.
    ...(env.SANDBOX !== '0' && !env.ACQUIRER_URL ? { fiscalStatusDelayMs: 10_000 } : {}),
    ...operationsFrom(env),
    ...mailFrom(env),
    ...passwordCostFrom(env, env.SANDBOX !== '0'),
  });
}
