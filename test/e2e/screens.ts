import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { TEST_CARDS } from '../../server/sandbox/acquirer';
import {
  codeScreenPhone,
  DESKTOP,
  fillRegistrationForm,
  freshBill,
  MOBILE,
  merchantRefund,
  payByCardFromChoose,
  payWithPointsAndCard,
  type RunningServer,
  smsCode,
  toChoosePaymentType as toChooseBill,
  typeCode,
} from './harness';
import { messages } from '../../src/services/messages';
import { stepMessages } from '../../src/services/stepMessages';
import { receiptMessages } from '../../src/services/receiptMessages';

const m = messages;
const r = receiptMessages;

/**
 * Walks the page to every screen of the page and hands each one to `visit` (a screenshot, an axe scan, a layout
 * check). Shared by scripts/screenshots.ts and test/e2e/a11y.ts, so both see the very same screens. Screens a
 * payer reaches one after another share a journey: each journey costs a context, a renderer, a page load and axe put
 * in anew, about 1.5 s before its first step (docs/testing.md).
 * Journeys that send an SMS to a fixed phone (forgot password) need a server of their own per device:
 * the server sends a phone one SMS a minute.
 */

export type Device = 'desktop' | 'mobile';
export type Visit = (name: string, page: Page) => Promise<void>;

interface Journey {
  name: string;
  devices?: Device[];
  run(page: Page, server: RunningServer, visit: Visit, device: Device): Promise<void>;
}

async function open(page: Page, server: RunningServer, demo: string): Promise<string> {
  const bill = await freshBill(server, demo);
  await page.goto(`${server.url}/pay/${bill}`);
  return bill;
}

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { name }).waitFor();

async function toChoosePaymentType(page: Page, server: RunningServer, demo: string): Promise<string> {
  const bill = await open(page, server, demo);
  await page.getByLabel(m.email.label).fill('payer@example.com');
  await page.getByRole('button', { name: m.app.continue }).click();
  await heading(page, stepMessages.choosePaymentType.title);
  return bill;
}

/** Pay by card up to the acquirer's form, left unpaid: answers the attempt's order (the form's address ends with it). */
async function cardAttempt(page: Page): Promise<string> {
  await page.getByRole('radio', { name: /Банковская карта/ }).check();
  await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
  await page.waitForURL(/\/sandbox\/acquirer\/[^/?#]+$/);
  return new URL(page.url()).pathname.split('/').pop()!;
}

async function payByCard(page: Page, server: RunningServer, card: string) {
  await toChoosePaymentType(page, server, 'demo-anon');
  await payByCardFromChoose(page, card);
}

export const journeys: Journey[] = [
  {
    // Pages without a bill to pay: the sandbox's start page (the demo bills and the tools), a bill that does not exist,
    // and a bill still loading. One tab, as a payer would go from the one to the next.
    name: 'start page, a bill that does not exist, and one loading',
    async run(page, server, visit) {
      await page.goto(`${server.url}/`);
      await heading(page, 'Онлайн-оплата счетов: демо');
      await visit('start-page', page);
      await page.goto(`${server.url}/pay/no-such-bill`);
      await page.getByRole('alert').waitFor();
      await visit('data-error', page);
      // The loading state is what a page that carries no bill data shows while it asks for it: a link whose retry the
      // server leaves to the page (named twice) is one. Hold the bill data so the loading state stays on screen.
      await page.route('**/ajax/object-info/**', () => undefined);
      await page.goto(`${server.url}/pay/${await freshBill(server, 'demo-anon')}?retry=a&retry=b`, { waitUntil: 'domcontentloaded' });
      await page.getByRole('status').filter({ hasText: 'Загрузка' }).waitFor();
      await visit('loading', page);
    },
  },
  {
    // A guest's card payment from the first step to its receipt, and then the merchant giving the money back: a part
    // (still paid, the receipt says what went back and when), then the rest. The result page as a receipt, and the paid
    // bill's link with it.
    name: 'a guest pays by card, and the merchant refunds it',
    async run(page, server, visit) {
      const bill = await open(page, server, 'demo-anon');
      await page.getByLabel(m.email.label).waitFor();
      await visit('guest', page);
      await page.getByRole('button', { name: m.app.continue }).click();
      await page.getByText(stepMessages.validation.emailRequired).waitFor();
      await visit('guest-email-error', page);
      await page.getByLabel(m.email.label).fill('payer@example.com');
      await page.getByRole('button', { name: m.app.continue }).click();
      await heading(page, stepMessages.choosePaymentType.title);
      await visit('choose-payment-type', page);
      await payByCardFromChoose(page, TEST_CARDS.pays);
      await page.getByRole('status').filter({ hasText: stepMessages.status.success }).waitFor({ timeout: 20_000 });
      await visit('result-success', page);
      await page.getByRole('region', { name: r.receiptTitle }).waitFor({ timeout: 20_000 });
      await visit('result-receipt', page);
      const result = page.url();
      const orderId = new URL(result).searchParams.get('orderId')!;
      await page.goto(`${server.url}/pay/${bill}`);
      await heading(page, r.paidTitle);
      await page.getByRole('region', { name: r.receiptTitle }).waitFor();
      await visit('paid-bill', page);
      await merchantRefund(server, orderId, '2000.00');
      await page.goto(result);
      await page.getByRole('region', { name: r.receiptTitle }).getByText(r.refunded).waitFor({ timeout: 20_000 });
      await visit('result-refunded-part', page);
      await merchantRefund(server, orderId);
      await page.reload();
      await page.getByRole('status').filter({ hasText: /^Возвращено / }).waitFor({ timeout: 20_000 });
      await visit('result-refunded', page);
      await page.goto(`${server.url}/pay/${bill}`);
      await heading(page, /^Возвращено /);
      await visit('paid-bill-refunded', page);
    },
  },
  {
    // The fiscal receipt: a bill with two positions paid by card with its fee and 1 234 points.
    name: 'receipt with positions',
    async run(page, server, visit) {
      await payWithPointsAndCard(page, server, await freshBill(server, 'demo-points'), 1234);
      await page.getByRole('region', { name: r.receiptTitle }).getByText(r.fiscalNote).waitFor();
      await visit('result-receipt-positions', page);
    },
  },
  {
    // An attempt left open at the bank's card form: Back from it (everything kept, and the attempt said to be open),
    // the result page while the card is not paid (still 'created': it keeps polling), and the bank's widget closed
    // (back on /fail with state=return while the bank says nothing).
    name: 'an attempt left open at the card form',
    async run(page, server, visit) {
      const bill = await toChoosePaymentType(page, server, 'demo-anon');
      const orderId = await cardAttempt(page);
      await page.getByLabel('Номер карты').waitFor();
      await visit('sandbox-card-form', page);
      await page.goBack();
      await heading(page, stepMessages.choosePaymentType.title);
      await page.getByText(stepMessages.choosePaymentType.openTitle).waitFor();
      await visit('choose-open-attempt', page);
      await page.goto(`${server.url}/success?orderId=${orderId}&billOid=${bill}`);
      await page.getByRole('status').filter({ hasText: stepMessages.status.created }).waitFor();
      await visit('result-created', page);
      await page.goto(`${server.url}/fail?orderId=${orderId}&billOid=${bill}&state=return`);
      await page.getByRole('status').filter({ hasText: r.cancelled }).waitFor({ timeout: 20_000 });
      await visit('result-cancelled', page);
    },
  },
  {
    // Two minutes without the bank's word (the page's clock run forward): said as it is, with a reload.
    name: 'slow confirmation',
    async run(page, server, visit) {
      const bill = await toChoosePaymentType(page, server, 'demo-anon');
      const orderId = await cardAttempt(page);
      await page.clock.install();
      await page.goto(`${server.url}/success?orderId=${orderId}&billOid=${bill}`);
      await page.getByRole('status').filter({ hasText: stepMessages.status.created }).waitFor({ timeout: 20_000 });
      // The status is in the server's markup: its polling (and its two-minute clock) runs once the page has taken it over.
      await page.locator('#result[data-shown]').waitFor({ state: 'attached', timeout: 20_000 });
      await page.clock.runFor(121_000);
      await page.getByRole('status').filter({ hasText: r.slow }).waitFor({ timeout: 20_000 });
      await visit('result-slow', page);
    },
  },
  {
    name: 'points',
    async run(page, server, visit) {
      await open(page, server, 'demo-points');
      await page.getByRole('button', { name: m.points.use }).waitFor();
      await visit('guest-points', page);
      await page.getByRole('button', { name: m.points.use }).click();
      await heading(page, m.points.blockTitle);
      await visit('use-points', page);
      // More than can be spent is cut to the most that can be, once the field is left.
      const points = page.getByLabel(stepMessages.usePoints.input);
      await points.fill('99999');
      await points.blur();
      await page.waitForFunction((field) => (field as HTMLInputElement).value.replace(/\D/g, '') !== '99999', await points.elementHandle());
      await visit('use-points-clamped', page);
      await page.getByLabel(stepMessages.usePoints.input).fill('1000');
      await page.getByRole('button', { name: m.points.use }).click();
      await heading(page, stepMessages.code.sent);
      await visit('check-send-code', page);
      // The first step's amount after the points.
      await typeCode(page, await smsCode(server, await codeScreenPhone(server, page)));
      await page.getByText(m.paymentInfo.billSum).waitFor();
      await visit('guest-points-applied', page);
      // Points spent: on the way to pay they are a discount in roubles, with a way to spend none.
      await page.getByLabel(m.email.label).fill('payer@example.com');
      await page.getByRole('button', { name: m.app.continue }).click();
      await heading(page, stepMessages.choosePaymentType.title);
      await page.getByRole('button', { name: stepMessages.choosePaymentType.noPoints }).waitFor();
      await visit('choose-points', page);
    },
  },
  {
    name: 'covered by points',
    async run(page, server, visit) {
      await open(page, server, 'demo-cover');
      await page.getByRole('button', { name: m.points.use }).click();
      await heading(page, m.points.blockTitle);
      await page.getByRole('button', { name: m.points.use }).click();
      await heading(page, stepMessages.code.sent);
      await typeCode(page, await smsCode(server, await codeScreenPhone(server, page)));
      await page.getByText(/^Использовано баллов/).waitFor();
      await page.getByLabel(m.email.label).fill('payer@example.com');
      await page.getByRole('button', { name: m.app.continue }).click();
      await heading(page, stepMessages.choosePaymentType.coveredByPoints);
      await visit('choose-covered-by-points', page);
    },
  },
  {
    // A stale tab: the bill was paid in another tab meanwhile.
    name: 'already paid',
    async run(page, server, visit) {
      const bill = await toChoosePaymentType(page, server, 'demo-anon');
      const other = await page.context().newPage();
      await toChooseBill(other, server, bill);
      await payByCardFromChoose(other, TEST_CARDS.pays);
      await other.close();
      await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
      await heading(page, stepMessages.choosePaymentType.alreadyPaid);
      await visit('choose-already-paid', page);
    },
  },
  {
    // A wrong password first: SPEC's 'Не удалось авторизоваться' as the heading, the server's reason under it; then the
    // right one, with the robot check that a failed sign-in always asks for.
    name: 'account: sign in',
    async run(page, server, visit) {
      await open(page, server, 'demo-reg');
      await heading(page, stepMessages.signIn.title);
      await visit('account-sign-in', page);
      await page.getByLabel(stepMessages.signIn.phone, { exact: true }).fill('9990000002');
      await page.getByLabel(stepMessages.signIn.password).fill('not-the-password');
      await page.getByRole('button', { name: m.app.continue }).click();
      await page.getByRole('alert').filter({ hasText: stepMessages.signIn.failures['wrong phone or password'] }).waitFor();
      await visit('account-sign-in-failed', page);
      await page.getByLabel(stepMessages.signIn.password).fill('demo-pass');
      await page.getByLabel(stepMessages.robot.standIn).check();
      await page.getByRole('button', { name: m.app.continue }).click();
      await page.getByText('ID: +7 (999) 000-00-02').waitFor();
      await visit('account-signed-in', page);
    },
  },
  {
    // The registration form, its errors, and after a registration the notice, the phone filled in, focus on the
    // password.
    name: 'register',
    async run(page, server, visit) {
      const phone = `7999${String(Date.now() % 10_000_000).padStart(7, '0')}`;
      await open(page, server, 'demo-reg');
      await page.getByRole('link', { name: stepMessages.signIn.register }).click();
      await heading(page, stepMessages.register.title);
      await visit('register', page);
      await page.getByLabel(stepMessages.register.surname).focus();
      await page.getByRole('button', { name: m.app.continue }).click({ force: true });
      await page.getByText(stepMessages.validation.surnameRequired).waitFor();
      await visit('register-errors', page);
      await fillRegistrationForm(page, { surname: 'Петров', name: 'Пётр', patronymic: 'Петрович', phone });
      await page.getByRole('button', { name: m.app.continue }).click();
      await heading(page, stepMessages.code.sent);
      await typeCode(page, await smsCode(server, phone));
      await page.getByText(stepMessages.signIn.registrationSuccess).waitFor();
      await visit('account-sign-in-registered', page);
    },
  },
  {
    // Runs last on its server: it resets the password of demo-reg's account and sends its phone an SMS.
    name: 'forgot password',
    async run(page, server, visit) {
      const phone = '79990000002';
      await open(page, server, 'demo-reg');
      await page.getByRole('link', { name: stepMessages.signIn.forgot }).click();
      await heading(page, stepMessages.forgotPassword.title);
      await visit('forgot-password', page);
      await page.getByLabel(stepMessages.signIn.phone, { exact: true }).fill(phone.slice(1));
      await page.getByLabel(stepMessages.robot.standIn).check();
      await page.getByRole('button', { name: m.app.continue }).click();
      await heading(page, stepMessages.code.sent);
      await page.getByRole('link', { name: /бесплатным звонком/ }).waitFor();
      await visit('check-send-code-forgot', page);
      const code = await smsCode(server, phone);
      await page.getByRole('link', { name: /бесплатным звонком/ }).click();
      await heading(page, stepMessages.freeCall.title);
      await page.getByText(stepMessages.freeCall.waiting).waitFor();
      await visit('check-by-phone', page);
      await page.getByRole('button', { name: m.app.back }).click();
      await heading(page, stepMessages.code.sent);
      await typeCode(page, code);
      await page.getByText(stepMessages.signIn.newPasswordSent).waitFor();
      await visit('account-sign-in-notice', page);
    },
  },
  {
    // The SMS provider's bad days, with the sandbox's SMS.ru fake's switches: a code it did not take, then a free call
    // that two pages could have claimed (set straight in the database here: the two-page journey is sms-provider.test).
    name: 'sms provider down',
    async run(page, server, visit) {
      const phone = '79990000031';
      const fault = (on: boolean) =>
        fetch(`${server.url}/sandbox/smsru/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ fault: 'provider-500', on }) });
      await open(page, server, 'demo-reg');
      await page.getByRole('link', { name: stepMessages.signIn.forgot }).click();
      await page.getByLabel(stepMessages.signIn.phone, { exact: true }).fill(phone.slice(1));
      await page.getByLabel(stepMessages.robot.standIn).check();
      await fault(true);
      try {
        await page.getByRole('button', { name: m.app.continue }).click();
        await page.getByRole('alert').filter({ hasText: stepMessages.code.smsFailed }).waitFor();
      } finally {
        await fault(false);
      }
      await visit('forgot-password-sms-failed', page);
      await page.getByLabel(stepMessages.robot.standIn).check();
      await page.getByRole('button', { name: m.app.continue }).click();
      await page.getByRole('link', { name: /бесплатным звонком/ }).click();
      await page.getByText(stepMessages.freeCall.waiting).waitFor();
      await server.app.store.db.updateTable('free_call_checks').set({ state: 'conflict' }).where('phone', '=', phone).execute();
      await page.getByRole('button', { name: stepMessages.freeCall.restart }).waitFor({ timeout: 15_000 });
      await visit('check-by-phone-start-again', page);
    },
  },
  {
    // A bill paid in parts: the progress and 'Сумма платежа' on the way to pay, a part below the least with its error,
    // and the result of a part with what remains.
    name: 'bill in parts',
    async run(page, server, visit) {
      const created = await fetch(`${server.url}/merchant/v1/bills`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.app.merchant.devApiKey!}`, 'content-type': 'application/json', 'idempotency-key': `parts-${Date.now()}-${Math.random()}` },
        body: JSON.stringify({
          purpose: 'Квартира 12, предоплата',
          amount: { value: '2500000.00', currency: 'RUB' },
          parts: { minimum: { value: '100000.00', currency: 'RUB' } },
          paymentTypes: [
            { code: 'ALL', name: 'Банковская карта' },
            { code: 'SBP', name: 'СБП' },
          ],
        }),
      });
      if (created.status !== 201) throw new Error(`the bill answered ${created.status}: ${await created.text()}`);
      const { payUrl } = (await created.json()) as { payUrl: string };
      await page.goto(payUrl);
      await page.getByLabel(m.email.label).fill('payer@example.com');
      await page.getByRole('button', { name: m.app.continue }).click();
      await heading(page, stepMessages.choosePaymentType.title);
      await page.getByRole('radio', { name: /СБП/ }).check();
      await visit('parts-choose', page);
      await page.getByRole('radio', { name: /Банковская карта/ }).check();
      await page.getByLabel(stepMessages.choosePaymentType.partAmount).fill('5000');
      await page.getByLabel(stepMessages.choosePaymentType.partAmount).blur();
      await page.getByText('Не меньше 100 000,00 руб.').first().waitFor();
      await visit('parts-part-error', page);
      await page.getByLabel(stepMessages.choosePaymentType.partAmount).fill('1000000');
      await payByCardFromChoose(page, TEST_CARDS.pays);
      await page.getByRole('status').filter({ hasText: stepMessages.status.success }).waitFor({ timeout: 20_000 });
      await page.getByRole('link', { name: r.nextPart }).waitFor();
      await visit('parts-result', page);
    },
  },
  {
    name: 'offer',
    async run(page, server, visit) {
      await toChoosePaymentType(page, server, 'demo-offer');
      await visit('choose-offer', page);
      await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
      await page.getByText(stepMessages.choosePaymentType.offerRequired).waitFor();
      await visit('choose-offer-errors', page);
      await page.getByRole('button', { name: stepMessages.agreement.aggregatorLink }).click();
      const dialog = page.getByRole('dialog', { name: stepMessages.offer.title });
      await dialog.waitFor();
      await dialog.getByText(stepMessages.offer.loading).waitFor({ state: 'detached' });
      await visit('offer-modal', page);
      // The payment terms: a modal titled as them.
      await page.getByRole('button', { name: stepMessages.offer.close }).click();
      await page.getByRole('button', { name: stepMessages.agreement.executorLink }).click();
      const terms = page.getByRole('dialog', { name: stepMessages.offer.executorTitle });
      await terms.waitFor();
      await terms.getByText(stepMessages.offer.loading).waitFor({ state: 'detached' });
      await visit('offer-modal-terms', page);
    },
  },
  {
    name: 'sbp',
    async run(page, server, visit, device) {
      await toChoosePaymentType(page, server, 'demo-anon');
      await page.evaluate(() => localStorage.setItem('checkout.sbp.lastUsedBank', '100000000004'));
      await page.getByRole('radio', { name: /СБП/ }).check();
      await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
      if (device === 'desktop') {
        await page.getByText(stepMessages.sbp.scanQr).waitFor();
        await page.getByRole('img', { name: stepMessages.sbp.qrAlt }).waitFor();
        await page.getByRole('status').filter({ hasText: stepMessages.status.created }).waitFor();
        await visit('sbp-desktop', page);
        await page.getByRole('button', { name: 'Выбрать банк из списка' }).click();
        await page.getByRole('list', { name: 'Выберите банк для оплаты' }).waitFor();
        await visit('sbp-desktop-banks', page);
      } else {
        // The bank list, with the payer's bank remembered from an earlier payment on this phone.
        await page.getByRole('list', { name: 'Выберите банк для оплаты' }).waitFor();
        await visit('sbp-mobile', page);
        await page.getByRole('searchbox', { name: 'Поиск банка' }).fill('альфа');
        await page.getByRole('status').filter({ hasText: 'Найден 1 банк' }).waitFor();
        await visit('sbp-mobile-search', page);
        await page.getByRole('searchbox', { name: 'Поиск банка' }).fill('');
        // Every bank shown: the list at its longest.
        await page.getByRole('button', { name: /^Все банки/ }).click();
        await page.getByRole('list', { name: 'Все банки', exact: true }).waitFor();
        await visit('sbp-mobile-all-banks', page);
        await page.getByRole('button', { name: stepMessages.sbp.showQr }).click();
        await page.getByRole('img', { name: stepMessages.sbp.qrAlt }).waitFor();
        await visit('sbp-mobile-qr', page);
      }
      // No connection while waiting for the bank.
      await page.context().setOffline(true);
      await page.getByRole('status').filter({ hasText: stepMessages.status.offline }).waitFor();
      await visit('sbp-offline', page);
      await page.context().setOffline(false);
    },
  },
  {
    // Declined in the bank app: the result step, with 'Попробовать снова' to choose another way (no 'Назад').
    name: 'sbp declined',
    async run(page, server, visit) {
      await toChoosePaymentType(page, server, 'demo-anon');
      await page.getByRole('radio', { name: /СБП/ }).check();
      const paid = page.waitForResponse('**/api/getPaymentUrl/');
      await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
      const payload = ((await (await paid).json()) as { info: { data: { payload: string } } }).info.data.payload;
      const bankApp = await page.context().newPage();
      await bankApp.goto(payload);
      await bankApp.getByRole('button', { name: 'Отклонить' }).click();
      await bankApp.getByRole('status').waitFor();
      await bankApp.close();
      await page.getByRole('status').filter({ hasText: stepMessages.status.declined }).waitFor({ timeout: 20_000 });
      await page.getByRole('button', { name: receiptMessages.retry }).waitFor();
      await visit('result-declined-in-checkout', page);
    },
  },
  {
    name: 'bank widget',
    devices: ['desktop'],
    async run(page, server, visit) {
      await toChoosePaymentType(page, server, 'demo-anon');
      await page.getByRole('radio', { name: /SberPay/ }).check();
      await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
      await page.frameLocator('.bank-widget-overlay iframe').getByText(/^Заказ /).waitFor();
      await visit('bank-widget', page);
    },
  },
  {
    // A declined card: why, in the payer's words, and the ways forward; fast payment then opens the way to pay with it
    // chosen, naming what failed.
    name: 'result declined',
    async run(page, server, visit) {
      await payByCard(page, server, TEST_CARDS.declined);
      await page.getByRole('status').filter({ hasText: stepMessages.status.declined }).waitFor({ timeout: 20_000 });
      await page.getByRole('region', { name: r.declinedTitle }).waitFor();
      await visit('result-declined', page);
      await page.getByRole('link', { name: r.fastPaymentNoFee }).click();
      await heading(page, stepMessages.choosePaymentType.title);
      await page.getByText(stepMessages.choosePaymentType.retryTitle).waitFor();
      await visit('choose-retry', page);
    },
  },
  {
    // The server asks for the robot check before it sends a code: the check is the one instruction, no 'try later'.
    // Then a wrong code: the tries left and no robot check; a second miss brings it, and Continue before the tick says
    // only that.
    name: 'robot check and wrong codes',
    async run(page, server, visit) {
      await open(page, server, 'demo-points');
      await page.getByRole('button', { name: m.points.use }).click();
      // The amount step has a button of the same name: a second click before it is here lands on the first screen's.
      await heading(page, m.points.blockTitle);
      const refusal = { status: 400, json: { success: false, error: 'Подтвердите, что вы не робот', show_captcha: true, json: { show_captcha: true } } };
      await page.route('**/api/send-sms/', (route) => route.fulfill(refusal), { times: 1 });
      await page.getByRole('button', { name: m.points.use }).click();
      await page.getByRole('alert').filter({ hasText: stepMessages.robot.notice }).waitFor();
      await visit('use-points-robot', page);
      // Use stays disabled until the tick.
      await page.getByLabel(stepMessages.robot.standIn).check();
      await page.getByRole('button', { name: m.points.use }).click();
      await heading(page, stepMessages.code.sent);
      const code = await smsCode(server, await codeScreenPhone(server, page));
      const wrong = (n: number) => String((Number(code) + n) % 10_000).padStart(4, '0');
      await typeCode(page, wrong(1));
      await page.getByRole('alert').filter({ hasText: stepMessages.code.rejected }).filter({ hasText: stepMessages.code.triesLeft(4) }).waitFor();
      await visit('check-send-code-wrong', page);
      await typeCode(page, wrong(2));
      await page.getByLabel(stepMessages.robot.standIn).waitFor();
      await typeCode(page, code);
      await page.getByRole('alert').filter({ hasText: stepMessages.robot.notice }).waitFor();
      await visit('check-send-code-robot', page);
    },
  },
];

export const DEVICES: Record<Device, typeof DESKTOP | typeof MOBILE> = { desktop: DESKTOP, mobile: MOBILE };

let payers = 0;

/**
 * An address of its own for each journey's payer (198.18.0.0/15, the range kept for benchmarks), sent as a proxy would
 * send it. A server that trusts the proxy in front of it (the accessibility walks') counts its per-address limits by it,
 * as it would for payers on their own phones: from one address, a walk's journeys met the limit of ten code sends a
 * minute.
 */
function payerAddress(): string {
  payers += 1;
  return `198.18.${Math.floor(payers / 250)}.${(payers % 250) + 1}`;
}

/** Runs one journey in a fresh context of the device, its payer at an address of its own; a page error fails it. */
export async function walk(browser: Browser, server: RunningServer, journey: Journey, device: Device, visit: Visit, options: BrowserContextOptions = {}) {
  const context = await browser.newContext({ ...DEVICES[device], extraHTTPHeaders: { 'x-forwarded-for': payerAddress() }, ...options });
  try {
    const page = await context.newPage();
    const errors: Error[] = [];
    page.on('pageerror', (error) => errors.push(error));
    await journey.run(page, server, visit, device);
    if (errors.length > 0) throw errors[0];
  } finally {
    await context.close();
  }
}
