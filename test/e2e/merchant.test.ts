import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { TEST_CARDS } from '../../server/sandbox/acquirer';
import { messages } from '../../src/services/messages';
import { receiptMessages } from '../../src/services/receiptMessages';
import { stepMessages } from '../../src/services/stepMessages';
import { payByCardFromChoose, useLiveServer, usePages } from './harness';

/**
 * Issue 14's journey: a merchant issues a bill by the API, the payer opens its payUrl and pays by card in Chromium,
 * the merchant's endpoint receives the webhook signed (checked here from the scheme's definition, not with the
 * server's code), and the API reads the bill back paid with one successful payment.
 */

jest.setTimeout(60_000);

const SECRET_BYTES = crypto.randomBytes(32);
const SECRET = `whsec_${SECRET_BYTES.toString('base64')}`;

/** The merchant's webhook endpoint: a plain HTTP server that keeps every request as it came. */
const hooks: { headers: http.IncomingHttpHeaders; body: string }[] = [];
const endpoint = http.createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => (body += chunk));
  request.on('end', () => {
    hooks.push({ headers: request.headers, body });
    response.writeHead(204).end();
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise<void>((resolve) => endpoint.close(() => resolve()));
});

const live = useLiveServer(() => ({
  webhookUrl: `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/hooks`,
  webhookSecret: SECRET,
}));
const openPage = usePages(live);

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${live.server.url}/merchant/v1${path}`, {
    ...init,
    headers: { authorization: `Bearer ${live.server.app.merchant.devApiKey}`, ...(init.headers as Record<string, string>) },
  });

async function waitFor<T>(read: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not arrive in 10 s`);
}

test('API bill → payUrl → card payment in Chromium → signed webhook → GET shows it paid', async () => {
  const returnUrl = `${live.server.url}/`;
  const created = await api('/bills', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({ purpose: 'Оплата заказа № 77 через API', amount: { value: '2500.00', currency: 'RUB' }, customer: { name: 'Иванов Иван' }, returnUrl }),
  });
  expect(created.status).toBe(201);
  const bill = (await created.json()) as { objectOID: string; payUrl: string; status: string };
  expect(bill.status).toBe('unpaid');

  const { page } = await openPage();
  await page.goto(bill.payUrl);
  await page.getByRole('heading', { name: 'Оплата заказа № 77 через API' }).waitFor();
  await page.getByLabel(messages.email.label).fill('payer@example.com');
  await page.getByRole('button', { name: messages.app.continue }).click();
  await page.getByRole('heading', { name: stepMessages.choosePaymentType.title }).waitFor();
  await payByCardFromChoose(page, TEST_CARDS.pays);
  await page.getByRole('status').filter({ hasText: stepMessages.status.success }).waitFor({ timeout: 20_000 });
  const back = page.getByRole('link', { name: receiptMessages.backToShop });
  expect(await back.getAttribute('href')).toBe(returnUrl);

  const paid = await waitFor(() => hooks.find((hook) => JSON.parse(hook.body).type === 'bill.paid'), 'bill.paid');
  const id = paid.headers['webhook-id'] as string;
  const timestamp = paid.headers['webhook-timestamp'] as string;
  const expected = `v1,${crypto.createHmac('sha256', SECRET_BYTES).update(`${id}.${timestamp}.${paid.body}`).digest('base64')}`;
  expect(paid.headers['webhook-signature']).toBe(expected);
  expect(Math.abs(Date.now() / 1000 - Number(timestamp))).toBeLessThan(300);
  expect(JSON.parse(paid.body)).toMatchObject({ id, type: 'bill.paid', data: { objectOID: bill.objectOID, status: 'paid' } });

  const read = (await (await api(`/bills/${bill.objectOID}`)).json()) as { status: string; payments: { status: string; receiptEmail: string }[] };
  expect(read.status).toBe('paid');
  expect(read.payments.filter((p) => p.status === 'success')).toEqual([expect.objectContaining({ status: 'success', receiptEmail: 'payer@example.com' })]);
});
