import { databaseEnv, startCheckoutServer, until } from '../../support/childServer';
import { freshBill, openTab, payBody, rbsFaultAt } from '../../support/httpTab';
import { processPlace } from '../helpers';

/*
 * The log of the real server (`server/main.ts`, pino's JSON lines on stdout at LOG_LEVEL=info), behind a proxy at
 * 127.0.0.1: every line a request causes names it, those written by the request's own logger and those written
 * elsewhere on its behalf (the gateway's) alike.
 */
const place = processPlace();

test("a Pay the acquirer refuses: its request id is on every line it causes, the gateway's included, once each", async () => {
  const server = await startCheckoutServer(databaseEnv(place.database), place.distDir, { env: { LOG: '1', LOG_LEVEL: 'info', TRUST_PROXY: '127.0.0.1' } });
  const tab = await openTab(server.base);
  const bill = await freshBill(server.base);
  await rbsFaultAt(server.base, 'register-500');

  const paid = await fetch(`${server.base}/api/getPaymentUrl/`, {
    method: 'POST',
    headers: { ...tab.headers, 'x-request-id': 'log-probe-000001' },
    body: JSON.stringify(payBody(bill)),
  });
  expect(paid.status).toBe(503);
  expect(paid.headers.get('x-request-id')).toBe('log-probe-000001');

  const linesOf = () => server.output().split('\n').filter((line) => line.includes('"log-probe-000001"'));
  await until(() => linesOf().some((line) => line.includes('"request completed"')), 'the request to be logged');
  const messages = linesOf().map((line) => (JSON.parse(line) as { msg: string; reqId: string }).msg);
  expect(messages).toEqual(expect.arrayContaining(['incoming request', 'request completed', expect.stringMatching(/^acquirer unavailable for order [0-9a-f]{32}$/)]));
  for (const line of linesOf()) expect(line.match(/"reqId"/g)).toHaveLength(1);
});
