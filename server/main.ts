import { buildApp } from './app';
import { optionsFromEnv } from './config';
import { demoBills, seedDemo } from './sandbox/demoBills';

/** `npm start`: serve the built page, the API and the sandbox; seed the demo bills into an empty database. */
async function main() {
  const options = optionsFromEnv();
  const app = await buildApp(options);
  const seeded = await seedDemo(app.store);
  await app.listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' });
  // PORT=0 asks for any free port: the return URLs handed to the acquirer must name the one we got.
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : Number(process.env.PORT ?? 3000);
  if (!process.env.PUBLIC_URL) app.appOptions.publicUrl = `http://localhost:${port}`;

  // The URL may carry a password: only its host and database are printed.
  const where = options.databaseUrl ? `PostgreSQL ${new URL(options.databaseUrl).host}${new URL(options.databaseUrl).pathname}` : `SQLite ${options.databasePath}`;
  const lines = [
    '',
    `Checkout is running on ${app.appOptions.publicUrl} (${where}${seeded ? ', demo bills seeded' : ''})`,
    ...(options.sandbox ? [`Start here: ${app.appOptions.publicUrl}/ (the demo bills and the sandbox tools)`] : []),
    '',
    'Demo bills:',
    ...demoBills.map((bill) => `  ${app.appOptions.publicUrl}/pay/${bill.oid}`),
    '',
    'Test cards: 4111 1111 1111 1111 pays, 4000 0000 0000 0002 is declined. Demo account: 79990000002 / demo-pass.',
    options.sandbox ? `SMS outbox: ${app.appOptions.publicUrl}/sandbox/sms?phone=79990000001` : 'Sandbox is off (SANDBOX=0).',
    '',
    ...merchantLines(app.appOptions.publicUrl, app.merchant.devApiKey, app.merchant.webhookUrl()),
  ];
  process.stdout.write(lines.join('\n') + '\n');

  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void app.close().then(() => process.exit(0)));
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

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
