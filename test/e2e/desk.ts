/**
 * The merchant's desk in the browser, for the journeys, the accessibility walk and the screenshots: signing in as a
 * role's demo account, and a walk over every page of the desk that hands each screen to `visit`.
 */
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { TEST_CARDS } from '../../server/sandbox/acquirer';
import { deskMessages } from '../../src/desk/services/messages';
import type { Role } from '../../src/desk/services/rules/permissions';
import { messages } from '../../src/services/messages';
import { stepMessages } from '../../src/services/stepMessages';
import { DESKTOP, MOBILE, payByCardFromChoose, type RunningServer } from './harness';
import type { Device, Visit } from './screens';

const m = deskMessages;

export function deskAccount(server: RunningServer, role: Role) {
  const account = server.app.desk.demoAccounts.find((demo) => demo.role === role);
  if (!account) throw new Error(`no demo account for ${role}`);
  return account;
}

/** Opens the desk (at `path`) and signs in as the role's demo account; answers once the page asked for is shown. */
export async function signInToDesk(page: Page, server: RunningServer, role: Role, path = '/desk/') {
  const { email, password } = deskAccount(server, role);
  await page.goto(`${server.url}${path}`);
  await page.getByLabel(m.signIn.email).fill(email);
  await page.getByLabel(m.signIn.password).fill(password);
  await page.getByRole('button', { name: m.signIn.submit }).click();
  await page.locator('#page-title').waitFor();
}

/** A bill issued through the merchant API (as an ERP would), answered with its objectOID and payUrl. */
export async function issueByApi(server: RunningServer, body: Record<string, unknown>): Promise<{ objectOID: string; payUrl: string }> {
  const response = await fetch(`${server.url}/merchant/v1/bills`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.app.merchant.devApiKey!}`, 'idempotency-key': `e2e-${Math.random()}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`POST /bills answered ${response.status}`);
  return (await response.json()) as { objectOID: string; payUrl: string };
}

/**
 * The payer pays a bill's link by card in a page of their own, back on the result page paid. A bill that names the
 * customer's e-mail asks for none.
 */
export async function payerPays(page: Page, payUrl: string) {
  await page.goto(payUrl);
  const next = page.getByRole('button', { name: messages.app.continue });
  await next.waitFor();
  const email = page.getByLabel(messages.email.label);
  if (await email.isVisible()) await email.fill('payer@example.com');
  await next.click();
  await page.getByRole('heading', { name: stepMessages.choosePaymentType.title }).waitFor();
  await payByCardFromChoose(page, TEST_CARDS.pays);
  await page.getByRole('status').filter({ hasText: stepMessages.status.success }).waitFor({ timeout: 30_000 });
}

/** The screens walkDesk shows, in its order (the screenshots are named after them). */
export const DESK_SCREENS = [
  'desk-sign-in',
  'desk-sign-in-wrong',
  'desk-bills',
  'desk-bills-search',
  'desk-bill',
  'desk-bill-link-sent',
  'desk-bill-paid',
  'desk-refund',
  'desk-refund-confirm',
  'desk-new-bill',
  'desk-new-bill-errors',
  'desk-payments',
  'desk-settings',
  'desk-staff',
  'desk-audit',
  'desk-password',
  'desk-forbidden',
  'desk-sandbox-mail',
];

const title = (page: Page, name: string | RegExp) => page.getByRole('heading', { name, level: 1 }).waitFor();
const nav = (page: Page, name: string) => page.getByRole('navigation', { name: m.app.nav }).getByRole('link', { name, exact: true }).click();

/**
 * Every screen of the desk on one device: the sign-in (and its refusal), each page an admin sees, a bill unpaid and
 * paid with the refund dialog, the new bill with its refusal, the one-time password's form, a page a manager may not
 * open, and the sandbox's mail inbox with a link sent.
 */
export async function walkDesk(browser: Browser, server: RunningServer, device: Device, visit: Visit, options: BrowserContextOptions = {}) {
  const context = await browser.newContext({ ...(device === 'mobile' ? MOBILE : DESKTOP), ...options });
  try {
    const page = await context.newPage();
    page.on('pageerror', (error) => {
      throw error;
    });
    await page.goto(`${server.url}/desk/`);
    await title(page, m.signIn.title);
    await visit('desk-sign-in', page);
    await page.getByLabel(m.signIn.email).fill('admin@demo.local');
    await page.getByLabel(m.signIn.password).fill('not-the-password');
    await page.getByRole('button', { name: m.signIn.submit }).click();
    await page.getByRole('alert').filter({ hasText: m.signIn.wrong }).waitFor();
    await visit('desk-sign-in-wrong', page);

    const { email, password } = deskAccount(server, 'admin');
    await page.getByLabel(m.signIn.password).fill(password);
    await page.getByLabel(m.signIn.email).fill(email);
    await page.getByRole('button', { name: m.signIn.submit }).click();
    await title(page, m.bills.title);
    await page.getByRole('link', { name: 'demo-anon' }).waitFor();
    await visit('desk-bills', page);
    await page.getByLabel(m.bills.search).fill('Петров');
    await page.getByRole('button', { name: m.bills.find }).click();
    await page.getByText(m.bills.found(1)).waitFor();
    await visit('desk-bills-search', page);

    await page.getByRole('link', { name: 'demo-points' }).click();
    await title(page, m.bill.title('demo-points'));
    await visit('desk-bill', page);
    await page.getByRole('button', { name: m.bill.bySms }).click();
    await page.getByText(m.bill.sent('sms', '+7 (999) 000-00-01')).waitFor();
    await visit('desk-bill-link-sent', page);
    await page.getByLabel(m.bill.to('email')).fill('petrov@example.ru');
    await page.getByRole('button', { name: m.bill.byEmail }).click();
    await page.getByText(m.bill.sent('email', 'petrov@example.ru')).waitFor();

    const paid = await issueByApi(server, {
      purpose: 'Предоплата за кухню',
      amount: { value: '15000.00', currency: 'RUB' },
      customer: { name: 'Орлова Ольга', phone: '79990004455' },
      items: [
        { name: 'Кухонный гарнитур', quantity: 1, price: { value: '12000.00', currency: 'RUB' }, vat: 'vat22', paymentMethod: 'full_prepayment', paymentObject: 'commodity' },
        { name: 'Сборка', quantity: 2, price: { value: '1500.00', currency: 'RUB' }, vat: 'vat22', paymentMethod: 'full_prepayment', paymentObject: 'service' },
      ],
    });
    const payer = await context.newPage();
    await payerPays(payer, paid.payUrl);
    await payer.close();
    await server.app.merchant.worker.deliverDue();
    await page.goto(`${server.url}/desk/bills/${paid.objectOID}`);
    await title(page, m.bill.title(paid.objectOID));
    await page.getByRole('button', { name: m.action.refund }).waitFor();
    await visit('desk-bill-paid', page);
    await page.getByRole('button', { name: m.action.refund }).click();
    await page.getByRole('dialog').waitFor();
    await visit('desk-refund', page);
    await page.getByLabel(m.action.amount).fill('1000');
    await page.getByRole('dialog').getByRole('button', { name: m.action.refund }).click();
    await page.getByRole('button', { name: m.action.confirm }).waitFor();
    await visit('desk-refund-confirm', page);
    await page.getByRole('button', { name: m.action.cancel }).or(page.getByRole('button', { name: m.action.back })).first().click();

    await page.goto(`${server.url}/desk/bills/new`);
    await title(page, m.newBill.title);
    await visit('desk-new-bill', page);
    await page.getByRole('button', { name: m.newBill.submit }).click();
    await page.getByRole('alert').waitFor();
    await visit('desk-new-bill-errors', page);

    await nav(page, m.app.navPayments);
    await title(page, m.payments.title);
    await page.getByRole('table').waitFor();
    await visit('desk-payments', page);
    await nav(page, m.app.navSettings);
    await title(page, m.settings.title);
    await page.getByLabel(m.settings.supportPhone).waitFor();
    await visit('desk-settings', page);
    await nav(page, m.app.navStaff);
    await title(page, m.staff.title);
    await page.getByRole('table').waitFor();
    await visit('desk-staff', page);
    await nav(page, m.app.navAudit);
    await title(page, m.audit.title);
    await page.getByRole('table').waitFor();
    await visit('desk-audit', page);

    // A newcomer's one-time password: the form that sets their own.
    await page.goto(`${server.url}/desk/staff`);
    await page.getByLabel(m.staff.email).fill(`newcomer-${device}@example.ru`);
    await page.getByRole('button', { name: m.staff.add }).click();
    const secret = page.locator('.secret');
    await secret.waitFor();
    const oneTime = (await secret.textContent())!;
    await page.getByRole('button', { name: m.app.signOut }).click();
    await title(page, m.signIn.title);
    await page.getByLabel(m.signIn.email).fill(`newcomer-${device}@example.ru`);
    await page.getByLabel(m.signIn.password).fill(oneTime);
    await page.getByRole('button', { name: m.signIn.submit }).click();
    await title(page, m.password.title);
    await visit('desk-password', page);

    // A manager at the address of a page the role may not open.
    await context.clearCookies();
    await signInToDesk(page, server, 'manager', '/desk/settings');
    await title(page, m.app.forbidden);
    await visit('desk-forbidden', page);

    await page.goto(`${server.url}/sandbox/mail`);
    await visit('desk-sandbox-mail', page);
  } finally {
    await context.close();
  }
}
