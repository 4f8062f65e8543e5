import { buildApp } from './app';
import { type AppOptions } from './config';
import { optionsFromEnv } from './environment';
import { listenForMetrics, servedOnMainPort } from './operations/metricsAccess';
import { stopOnSignals } from './operations/shutdown';
import type { DemoAccount } from './desk/staff';
import { demoAccount, demoBills, seedDemo } from './sandbox/demoBills';

/**
 * `npm start`: serve the built page, the API and the sandbox; with the sandbox on, seed the demo bills into an empty
 * database. With it off (production) nothing is seeded: the demo account signs in and its points are real ledger rows.
 * `serve` takes the options read from the environment (the benchmark's server adds its own: bench/checkout.ts).
 */
export async function serve(options: AppOptions = optionsFromEnv()): Promise<void> {
  const app = await buildApp(options);
  const seeded = options.sandbox ? await seedDemo(app.store) : false;
  const host = process.env.HOST ?? '127.0.0.1';
  await app.listen({ port: Number(process.env.PORT ?? 3000), host });
  const metricsPort = options.metricsPort === null ? null : await listenForMetrics(app, options.metricsPort, host);
  // PORT=0 asks for any free port: the return URLs handed to the acquirer must name the one we got.
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : Number(process.env.PORT ?? 3000);
  if (!process.env.PUBLIC_URL) app.appOptions.publicUrl = `http://localhost:${port}`;

  // The URL may carry a password: only its host and database are printed.
  const where = options.databaseUrl ? `PostgreSQL ${new URL(options.databaseUrl).host}${new URL(options.databaseUrl).pathname}` : `SQLite ${options.databasePath}`;
  const lines = [
    '',
    `Checkout is running on ${app.appOptions.publicUrl} (${where}${seeded ? ', demo bills seeded' : ''})`,
    ...(options.sandbox ? sandboxLines(app.appOptions.publicUrl) : ['Sandbox is off (SANDBOX=0): no demo bills, no demo account, no test cards.', '']),
    ...merchantLines(app.appOptions.publicUrl, app.merchant.devApiKey, await app.merchant.currentWebhookUrl()),
    ...deskLines(app.appOptions.publicUrl, app.desk.demoAccounts, options),
    ...operationsLines(app.appOptions.publicUrl, options, metricsPort),
  ];
  process.stdout.write(lines.join('\n') + '\n');

  stopOnSignals(app, { timeoutMs: options.shutdownTimeoutMs, say: (line) => process.stdout.write(`${line}\n`), exit: (code) => process.exit(code) });
}

/** The operations part of the banner: the health checks and where the metrics are (and whether they are guarded). */
function operationsLines(base: string, options: AppOptions, metricsPort: number | null): string[] {
  const where =
    metricsPort !== null
      ? `port ${metricsPort} only (METRICS_PORT)${options.metricsToken ? ', with METRICS_TOKEN' : ''}`
      : servedOnMainPort(options)
        ? `${base}/metrics${options.metricsToken ? ' (Authorization: Bearer METRICS_TOKEN)' : ' (open: the sandbox is on)'}`
        : 'off (set METRICS_TOKEN or METRICS_PORT)';
  return [`Health: ${base}/health/live, ${base}/health/ready. Metrics: ${where}`, ''];
}

/** The sandbox's part of the banner: where to start, the demo bills, the test cards, the demo account, the texts the SMS fake delivered. */
function sandboxLines(base: string): string[] {
  return [
    `Start here: ${base}/ (the demo bills and the sandbox tools)`,
    '',
    'Demo bills:',
    ...demoBills.map((bill) => `  ${base}/pay/${bill.oid}`),
    '',
    `Test cards: 4111 1111 1111 1111 pays, 4000 0000 0000 0002 is declined. Demo account: ${demoAccount.phone} / ${demoAccount.password}.`,
    `SMS (the sandbox's SMS.ru fake; SMSRU_API_ID for a real provider): ${base}/sandbox/sms?phone=79990000001`,
    '',
  ];
}

/**
 * The desk's part of the banner: where it is, the demo accounts (sandbox only; one line each, as documented), how to
 * add staff, and where its e-mail goes.
 */
function deskLines(base: string, accounts: DemoAccount[], options: AppOptions): string[] {
  const mail = options.smtpUrl ? `SMTP ${new URL(options.smtpUrl).host}` : options.sandbox ? `the sandbox's mail server, inbox ${base}/sandbox/mail` : 'off (set SMTP_URL and MAIL_FROM)';
  return [
    `Merchant desk: ${base}/desk/ (staff: npm run desk:user -- --email … --role manager|accountant|admin). E-mail: ${mail}`,
    ...accounts.map((account) => `Desk ${account.role}: ${account.email} / ${account.password}`),
    '',
  ];
}

/** The merchant API's part of the banner: the development key with a ready curl, and where webhooks go. */
function merchantLines(base: string, devKey: string | null, webhookUrl: string | null): string[] {
  const key = devKey ?? '<one of MERCHANT_API_KEYS>';
  const body = JSON.stringify({ purpose: 'Оплата заказа № 1', amount: { value: '1500.00', currency: 'RUB' } });
  return [
    `Merchant API: ${base}/merchant/v1/ (OpenAPI: ${base}/merchant/v1/openapi.json; walk-through: docs/merchant-api.md)`,
    devKey ? `  Development key (generated once, kept in the database): ${devKey}` : '  Keys: MERCHANT_API_KEYS',
    '  Issue a bill:',
    `  curl -X POST ${base}/merchant/v1/bills -H 'Authorization: Bearer ${key}' -H 'Idempotency-Key: first-bill-1' \\`,
    `    -H 'Content-Type: application/json' -d '${body}'`,
    `Webhooks: ${webhookUrl ?? 'off (set MERCHANT_WEBHOOK_URL)'}${webhookUrl?.endsWith('/sandbox/webhooks') ? ' (the sandbox inbox; MERCHANT_WEBHOOK_URL to change)' : ''}`,
    '',
  ];
}

if (require.main === module) {
  serve().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
