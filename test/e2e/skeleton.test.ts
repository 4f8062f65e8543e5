import { TEST_CARDS } from '../../server/sandbox/acquirer';
import { freshBill, newContext, payWithCard, useLiveServer } from './harness';
import { messages } from '../../src/services/messages';
import { stepMessages } from '../../src/services/stepMessages';
import { receiptMessages } from '../../src/services/receiptMessages';

const m = messages;

const live = useLiveServer();

/** From the bill page through the e-mail and the card choice to the acquirer's card form. */
async function payByCard(objectOID: string, card: string) {
  const context = await newContext(live.browser);
  const page = await context.newPage();
  await page.goto(`${live.server.url}/pay/${objectOID}`);
  await page.getByLabel(m.email.label).fill('payer@example.com');
  await page.getByRole('button', { name: m.app.continue }).click();
  await page.getByRole('radio', { name: /Банковская карта/ }).check();
  await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
  await page.waitForURL(/\/sandbox\/acquirer\//);
  await payWithCard(page, card);
  return { context, page };
}

test('demo-anon paid with 4111 1111 1111 1111 ends on the success status', async () => {
  const { context, page } = await payByCard(await freshBill(live.server, 'demo-anon'), TEST_CARDS.pays);
  await page.waitForURL(/\/success\?billOid=.*orderId=/);
  await expectStatus(page, stepMessages.status.success);
  await context.close();
});

test('demo-anon paid with 4000 0000 0000 0002 ends on the declined status', async () => {
  const { context, page } = await payByCard(await freshBill(live.server, 'demo-anon'), TEST_CARDS.declined);
  await page.waitForURL(/\/fail\?billOid=.*orderId=/);
  await expectStatus(page, stepMessages.status.declined);
  await context.close();
});

test('an unknown bill shows the data error and its page title; demo-paid says it is paid', async () => {
  const context = await newContext(live.browser);
  const page = await context.newPage();
  await page.goto(`${live.server.url}/pay/no-such-bill`);
  // SPEC's words for it, as the payer reads them.
  await page.getByText('Произошла ошибка при получении данных, возможно, документ уже оплачен').waitFor();
  expect(await page.title()).toBe('Ошибка получения данных');
  await page.goto(`${live.server.url}/pay/demo-paid`);
  await page.getByRole('heading', { name: receiptMessages.paidTitle }).waitFor();
  expect(await page.getByText(m.app.dataError).count()).toBe(0);
  await context.close();
});

async function expectStatus(page: import('playwright-core').Page, text: string) {
  const status = page.getByRole('status');
  await status.filter({ hasText: text }).waitFor({ timeout: 15_000 });
  expect(await status.textContent()).toBe(text);
}
