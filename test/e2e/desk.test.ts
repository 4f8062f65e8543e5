import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { deskMessages, refundStatusNames } from '../../src/desk/services/messages';
import { freshBill, smsMatching, useLiveServer, usePages } from './harness';
import { payerPays, signInToDesk } from './desk';

/**
 * The merchant's desk in Chromium, a journey per role on one server, in order: a manager issues a bill of two
 * positions and sends its link by SMS and by e-mail (both arrive in the sandbox's inboxes); the customer pays it from
 * the SMS; an accountant finds it by the customer's phone, refunds part of it, sees the day's sum on the chart and in
 * the table beside it, and exports the day's payments as CSV that adds up to that sum; a manager sees no refund and is
 * refused one by the server; an admin changes the support phone and the payer's page shows the new one.
 */

jest.setTimeout(180_000);

const live = useLiveServer();
const openPage = usePages(live);
const m = deskMessages;

const customer = { name: 'Кузнецова Ирина', phone: '79991112233', typedPhone: '+7 (999) 111-22-33', email: 'kuznetsova@example.ru' };
/** The bill the manager issues, which the later journeys find. */
let issued: { objectOID: string; payUrl: string } | undefined;
/** The payment of it, as the accountant's export names it. */
let orderId: string | undefined;

/** Text as a reader sees it: the page's no-break spaces as plain ones. */
const plain = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();
const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { name, level: 1 }).waitFor();
/** A table's rows after its header, each as its cells' texts. */
const bodyRows = async (table: Locator) => {
  const rows = await table.getByRole('row').all();
  return Promise.all(rows.slice(1).map(async (row) => (await row.getByRole('cell').or(row.getByRole('rowheader')).allTextContents()).map(plain)));
};
const position = (page: Page, n: number) => page.getByRole('group', { name: m.newBill.position(n), exact: true });

test('a manager issues a bill of two positions and sends its link by SMS and by e-mail', async () => {
  const { page } = await openPage();
  await signInToDesk(page, live.server, 'manager');
  await page.getByRole('navigation', { name: m.app.nav }).getByRole('link', { name: m.app.navNewBill }).click();
  await heading(page, m.newBill.title);

  await page.getByLabel(m.newBill.purpose).fill('Комплект зимних шин с установкой');
  await page.getByLabel(m.newBill.name).fill(customer.name);
  await page.getByLabel(m.newBill.phone).fill(customer.typedPhone);
  await page.getByLabel(m.newBill.email).fill(customer.email);
  await position(page, 1).getByLabel(m.newBill.itemName).fill('Шины 215/60 R16');
  await position(page, 1).getByLabel(m.newBill.quantity).fill('4');
  await position(page, 1).getByLabel(m.newBill.price).fill('6 500');
  await position(page, 1).getByLabel(m.newBill.vat).selectOption('vat22');
  await page.getByRole('button', { name: m.newBill.addPosition }).click();
  await position(page, 2).getByLabel(m.newBill.itemName).fill('Шиномонтаж');
  await position(page, 2).getByLabel(m.newBill.price).fill('2400,50');
  await position(page, 2).getByLabel(m.newBill.vat).selectOption('vat22');
  await position(page, 2).getByLabel(m.newBill.paymentObject).selectOption('service');
  expect(plain(await page.locator('.total').textContent())).toBe(`${m.newBill.total}: 28 400,50 руб.`);
  await page.getByRole('button', { name: m.newBill.submit }).click();

  // Issued, the desk opens the bill: its two positions, and the customer's phone ready to send the link to.
  await page.waitForURL(/\/desk\/bills\/(?!new$)[A-Za-z0-9_-]+$/);
  const objectOID = new URL(page.url()).pathname.split('/').pop()!;
  await heading(page, m.bill.title(objectOID));
  expect(await bodyRows(page.getByRole('region', { name: m.bill.positions }))).toEqual([
    ['Шины 215/60 R16', '4', '6 500,00 руб.', '26 000,00 руб.', 'НДС 22%', 'Товар'],
    ['Шиномонтаж', '1', '2 400,50 руб.', '2 400,50 руб.', 'НДС 22%', 'Услуга'],
  ]);
  const payUrl = (await page.locator('.pay-link code').textContent())!;
  issued = { objectOID, payUrl };

  await page.getByRole('button', { name: m.bill.bySms }).click();
  await page.getByText(m.bill.sent('sms', customer.typedPhone)).waitFor();
  await page.getByRole('button', { name: m.bill.byEmail }).click();
  await page.getByText(m.bill.sent('email', customer.email)).waitFor();

  // The SMS in the sandbox's SMS inbox, with the link.
  const sms = await smsMatching(live.server, customer.phone, /Оплатить: (\S+)$/);
  expect(sms[1]).toBe(payUrl);
  // The letter on the sandbox's mail inbox page, with the link.
  await page.goto(`${live.server.url}/sandbox/mail?to=${customer.email}`);
  const letter = page.getByRole('listitem').filter({ hasText: 'Комплект зимних шин с установкой' });
  await letter.waitFor();
  expect(plain(await letter.textContent())).toContain(`Кому: ${customer.email}`);
  expect(plain(await letter.textContent())).toContain(`Оплатить: ${payUrl}`);
  expect(plain(await letter.textContent())).toContain('Сумма: 28 400,50 руб.');
});

test('an accountant finds the paid bill by phone, refunds part of it, sees the day on the chart and exports it to CSV that adds up', async () => {
  expect(issued).toBeDefined();
  const { objectOID, payUrl } = issued!;
  const { page, context } = await openPage();
  // The customer pays from the link the SMS brought.
  await payerPays(await context.newPage(), payUrl);

  await signInToDesk(page, live.server, 'accountant');
  await page.getByLabel(m.bills.search).fill(customer.typedPhone);
  await page.getByRole('button', { name: m.bills.find }).click();
  await page.getByText(m.bills.found(1)).waitFor();
  await page.getByRole('link', { name: objectOID }).click();
  await heading(page, m.bill.title(objectOID));

  await page.getByRole('button', { name: m.action.refund }).click();
  const dialog = page.getByRole('dialog', { name: m.action.refundTitle });
  await dialog.getByLabel(m.action.amount).fill('1000');
  await dialog.getByLabel(m.action.reason).fill('Один диск не подошел');
  await dialog.getByRole('button', { name: m.action.refund }).click();
  await dialog.getByRole('button', { name: m.action.confirm }).waitFor();
  expect(plain(await dialog.getByRole('status').textContent())).toBe(plain(m.action.confirmText('1 000,00 руб.')));
  await dialog.getByRole('button', { name: m.action.confirm }).click();
  await dialog.waitFor({ state: 'detached' });
  // The page reads the bill again: the refund is listed with its reason, under way at the bank or (the server sends it
  // at once, in the background) already made.
  const payment = page.locator('article.payment');
  await payment.getByText('Один диск не подошел').waitFor();
  expect(plain(await payment.getByRole('listitem').filter({ hasText: 'Один диск не подошел' }).textContent())).toMatch(
    new RegExp(`· 1 000,00 руб\\. · (${refundStatusNames.pending}|${refundStatusNames.succeeded}) · Один диск не подошел$`),
  );
  // Once the bank has made it, the bill's page counts it as refunded and says so.
  const paidOrder = plain(await payment.locator('dd').first().textContent());
  await live.server.app.gateway.makeRefunds(paidOrder);
  await page.reload();
  await heading(page, m.bill.title(objectOID));
  expect(plain(await page.locator('article.payment dl').textContent())).toContain(`${m.bill.refunded}1 000,00 руб.`);
  expect(plain(await payment.getByRole('listitem').filter({ hasText: 'Один диск не подошел' }).textContent())).toMatch(
    new RegExp(`· 1 000,00 руб\\. · ${refundStatusNames.succeeded} · Один диск не подошел$`),
  );

  // The payments: today's sum in the figures, on the chart (today is the bar chosen) and in the table beside it.
  await page.getByRole('navigation', { name: m.app.nav }).getByRole('link', { name: m.app.navPayments }).click();
  await heading(page, m.payments.title);
  const today = plain(await page.getByRole('region', { name: m.payments.today }).locator('.figure-sum').textContent());
  expect(today).toMatch(/^[1-9][\d ]*,\d\d руб\.$/);
  const todayBar = page.getByRole('group', { name: m.payments.chart }).getByRole('button', { pressed: true });
  expect(plain(await todayBar.getAttribute('aria-label'))).toMatch(new RegExp(`: ${today}, 1 платеж$`));
  expect(plain(await page.locator('.chart-readout').textContent())).toBe(plain(await todayBar.getAttribute('aria-label')));
  const [dayRow] = await bodyRows(page.getByRole('table', { name: m.payments.table }));
  expect(dayRow!.slice(1)).toEqual(['1', today]);

  // The day's payments as CSV: UTF-8 with a byte-order mark, ';' between fields, and the sums add up to today's.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: m.payments.exportPayments }).click()]);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'desk-csv-')), download.suggestedFilename());
  await download.saveAs(file);
  const bytes = fs.readFileSync(file);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const [header, ...lines] = bytes.subarray(3).toString('utf8').split('\r\n').filter(Boolean).map((line) => line.split(';'));
  const column = (name: string) => header!.indexOf(name);
  expect(header).toContain('Сумма, руб.');
  expect(lines).toHaveLength(1);
  const row = lines[0]!;
  expect([row[column('Номер счета')], row[column('Статус')], row[column('Возвращено, руб.')], row[column('Телефон')]]).toEqual([objectOID, 'Оплачен', '1000,00', customer.phone]);
  const kopecks = (text: string) => Number(text.replace(/[^\d,]/g, '').replace(',', ''));
  expect(lines.reduce((sum, line) => sum + kopecks(line[column('Сумма, руб.')]!), 0)).toBe(kopecks(today));
  expect(row[column('Номер платежа')]).toBe(paidOrder);
  orderId = paidOrder;
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
});

test('a manager sees no refund on the paid bill, and the server refuses one with 403', async () => {
  expect(orderId).toBeDefined();
  const { page } = await openPage();
  await signInToDesk(page, live.server, 'manager', `/desk/bills/${issued!.objectOID}`);
  await heading(page, m.bill.title(issued!.objectOID));
  await page.locator('article.payment').waitFor();
  await expect(page.getByRole('button', { name: m.action.refund }).count()).resolves.toBe(0);
  expect(await page.getByRole('navigation', { name: m.app.nav }).getByRole('link').allTextContents()).toEqual([m.app.navBills, m.app.navNewBill, m.app.navPayments]);

  // Asked all the same, with the session's own token: refused for the role, not for the token.
  const answer = await page.evaluate(async (order) => {
    const { csrfToken } = (await (await fetch('/desk/api/session')).json()) as { csrfToken: string };
    const response = await fetch(`/desk/api/payments/${order}/refunds`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken, 'idempotency-key': 'a-manager-tries' },
      body: JSON.stringify({ amount: { value: '100.00', currency: 'RUB' } }),
    });
    return { status: response.status, body: (await response.json()) as unknown };
  }, orderId!);
  expect(answer).toEqual({ status: 403, body: { error: expect.objectContaining({ code: 'forbidden' }) } });
});

test('an admin changes the support phone, and the payer’s page shows the new one', async () => {
  const { page } = await openPage();
  await signInToDesk(page, live.server, 'admin', '/desk/settings');
  await heading(page, m.settings.title);
  await page.getByLabel(m.settings.supportPhone).fill('+7 (495) 777-00-11');
  await page.getByRole('button', { name: m.settings.save }).click();
  await page.getByText(m.settings.saved).waitFor();

  const payer = await page.context().newPage();
  await payer.goto(`${live.server.url}/pay/${await freshBill(live.server, 'demo-anon')}`);
  const support = payer.getByRole('banner').getByRole('link', { name: '+7 (495) 777-00-11' });
  await support.waitFor();
  expect(await support.getAttribute('href')).toBe('tel:+74957770011');
});
