import type { Locator, Page } from 'playwright-core';
import { TEST_CARDS } from '../../server/sandbox/acquirer';
import { billStatusNames, deskMessages, paymentStatusNames } from '../../src/desk/services/messages';
import { receiptMessages } from '../../src/services/receiptMessages';
import { payByCardFromChoose, toChoosePaymentType, useLiveServer, usePages } from './harness';
import { deskAccount, issueByApi, signInToDesk } from './desk';

/**
 * The accountant's money controls on a bill's page in Chromium, through the same requests as the merchant API: a
 * deposit held on the payer's card is captured in part (the rest released by the bank) and the bill is marked handed
 * over (its closing receipt listed); another deposit is released, and its bill waits for payment again. A manager sees
 * none of these buttons.
 */

jest.setTimeout(180_000);

const live = useLiveServer();
const openPage = usePages(live);
const m = deskMessages;

/** Text as a reader sees it: the page's no-break spaces as plain ones. */
const plain = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();
const billStatus = (page: Page) => page.locator('.facts .status');

/** A deposit of 150 000 ₽ paid by card in a page of its own: the money held on the card. Answers its objectOID. */
async function heldDeposit(payer: Page): Promise<string> {
  const { objectOID, payUrl } = await issueByApi(live.server, {
    purpose: 'Бронь автомобиля',
    amount: { value: '150000.00', currency: 'RUB' },
    capture: 'manual',
    // The card without a fee: the amount held is the bill's.
    paymentTypes: [{ code: 'ALL', name: 'Банковская карта' }],
    customer: { name: 'Соколов Андрей', phone: '79990007788' },
  });
  await toChoosePaymentType(payer, live.server, new URL(payUrl).pathname.split('/').pop()!);
  await payByCardFromChoose(payer, TEST_CARDS.pays);
  await payer.getByRole('status').filter({ hasText: receiptMessages.held }).waitFor({ timeout: 30_000 });
  return objectOID;
}

/** Opens an action's dialog from its button and answers the dialog. */
async function openAction(page: Page, where: Locator, kind: 'capture' | 'release' | 'handover'): Promise<Locator> {
  await where.getByRole('button', { name: m.action.buttons[kind] }).click();
  const dialog = page.getByRole('dialog', { name: m.action.titles[kind] });
  await dialog.waitFor();
  return dialog;
}

test('an accountant captures part of a held deposit, then marks the car handed over: the closing receipt is listed', async () => {
  const { page, context } = await openPage();
  const objectOID = await heldDeposit(await context.newPage());

  await signInToDesk(page, live.server, 'accountant', `/desk/bills/${objectOID}`);
  await page.getByRole('heading', { name: m.bill.title(objectOID), level: 1 }).waitFor();
  expect(plain(await billStatus(page).textContent())).toBe(billStatusNames.held);
  const payment = page.locator('article.payment');
  await payment.getByText(paymentStatusNames.held!).first().waitFor();
  // The hold's own deadline is told: the bank releases it by itself then.
  await payment.getByText(m.bill.heldUntil).waitFor();

  const capture = await openAction(page, payment, 'capture');
  await capture.getByLabel(m.action.captureAmount).fill('100000');
  await capture.getByRole('button', { name: m.action.buttons.capture }).click();
  await capture.getByRole('button', { name: m.action.confirmCapture }).waitFor();
  expect(plain(await capture.getByRole('status').textContent())).toBe(plain(m.action.confirmCaptureText('100 000,00 руб.', '150 000,00 руб.')));
  await capture.getByRole('button', { name: m.action.confirmCapture }).click();
  await capture.waitFor({ state: 'detached' });
  // The page reads the bill again: paid what was taken.
  await billStatus(page).filter({ hasText: billStatusNames.paid }).waitFor();
  expect(plain(await page.locator('.facts').first().textContent())).toContain(`${m.bill.paidSoFar}100 000,00 руб.`);

  const handover = await openAction(page, page.getByRole('group', { name: m.bill.billActions }), 'handover');
  await handover.getByRole('button', { name: m.action.confirmHandover }).click();
  await handover.waitFor({ state: 'detached' });
  await billStatus(page).filter({ hasText: billStatusNames.handed_over }).waitFor();
  await page.getByRole('heading', { name: m.bill.closingReceipts, exact: true }).waitFor();
  expect(plain(await page.locator('body').textContent())).toMatch(/Чек полного расчета на 100 000,00 руб\.:/);

  // Each move is in the audit log under the accountant's name.
  const audit = await live.server.app.store.db.selectFrom('desk_audit').select(['action', 'staff_email']).where('action', 'in', ['hold.captured', 'bill.handed_over']).orderBy('id').execute();
  const accountant = deskAccount(live.server, 'accountant').email;
  expect(audit).toEqual([
    { action: 'hold.captured', staff_email: accountant },
    { action: 'bill.handed_over', staff_email: accountant },
  ]);
});

test('an accountant releases a held deposit: the bill waits for payment again; a manager sees no money buttons', async () => {
  const { page, context } = await openPage();
  const objectOID = await heldDeposit(await context.newPage());

  const manager = await context.browser()!.newContext();
  try {
    const managerPage = await manager.newPage();
    await signInToDesk(managerPage, live.server, 'manager', `/desk/bills/${objectOID}`);
    await managerPage.locator('article.payment').waitFor();
    for (const kind of ['capture', 'release', 'handover'] as const) {
      expect(await managerPage.getByRole('button', { name: m.action.buttons[kind] }).count()).toBe(0);
    }
  } finally {
    await manager.close();
  }

  await signInToDesk(page, live.server, 'accountant', `/desk/bills/${objectOID}`);
  const payment = page.locator('article.payment');
  await payment.getByText(paymentStatusNames.held!).first().waitFor();
  const release = await openAction(page, payment, 'release');
  expect(plain(await release.getByRole('status').textContent())).toBe(plain(m.action.confirmReleaseText('150 000,00 руб.')));
  await release.getByRole('button', { name: m.action.confirmRelease }).click();
  await release.waitFor({ state: 'detached' });
  await billStatus(page).filter({ hasText: billStatusNames.unpaid }).waitFor();
  await payment.getByText(paymentStatusNames.released!).first().waitFor();
});
