import type { Page } from 'playwright-core';
import { TEST_CARDS } from '../../server/sandbox/acquirer';
import { bankListMessages } from '../../src/services/bankListMessages';
import { messages } from '../../src/services/messages';
import { receiptMessages } from '../../src/services/receiptMessages';
import { stepMessages } from '../../src/services/stepMessages';
import { violationsOf } from './a11y';
import { codeScreenPhone, fillRegistration, freshBill, MOBILE, newestSmsId, payWithCard, smsCode, smsMatching, typeCode, useLiveServer, usePages } from './harness';

/*
 * The payer at the money moments, in Chromium against the real server: a reload on every step keeps what was typed and
 * chosen; Back from the bank's card form and from fast payment returns to the way to pay with everything kept and says
 * what is still open; a declined card says why and what to do; a wrong code says how many tries are left; after a
 * registration the sign-in form has the phone and waits for the password.
 */

jest.setTimeout(120_000);

const live = useLiveServer();
const openPage = usePages(live);
const m = messages;
const t = stepMessages.choosePaymentType;
const PAY = /^Оплатить \d/;
const hash = (page: Page) => new URL(page.url()).hash;

async function open(page: Page, demo: string) {
  await page.goto(`${live.server.url}/pay/${await freshBill(live.server, demo)}`);
}

/** A reload once the page has shown what was done (the next frame), then the step the address bar named comes back. */
async function reload(page: Page, heading: string | RegExp) {
  // The address bar is bound to the checkout a moment after the first render (a chunk of its own): the step is named
  // in it once bound, on the first step too.
  await page.waitForURL(/#\/[\w-]+$/);
  const before = hash(page);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
  await page.reload();
  await page.getByRole('heading', { name: heading }).first().waitFor();
  // The heading may be the server's markup: what the tab kept shows once the page's script has taken it over.
  await page.locator('[data-shown]').first().waitFor({ state: 'attached' });
  await page.waitForURL(/#\/[\w-]+$/);
  expect(hash(page)).toBe(before);
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

/**
 * The anonymous payer's way to the money moment: demo-anon, the e-mail for the receipt, Continue, a way to pay, Pay.
 * A phone taps where a desktop clicks, so the journeys on MOBILE press as a phone does.
 */
async function payAnonymously(page: Page, way: RegExp, press: 'tap' | 'click' = 'click') {
  await open(page, 'demo-anon');
  await field(page, m.email.label).fill('payer@example.com');
  await page.getByRole('button', { name: m.app.continue })[press]();
  await page.getByRole('radio', { name: way }).check();
  await page.getByRole('button', { name: PAY })[press]();
}

describe('a reload keeps every step as it was', () => {
  test('the way to pay: the ticks and the e-mail changed there; Back to the first step', async () => {
    const { page } = await openPage(MOBILE);
    await open(page, 'demo-offer');
    await field(page, m.email.label).fill('payer@example.com');
    await page.getByRole('button', { name: m.app.continue }).tap();
    await page.getByRole('heading', { name: t.title }).waitFor();
    await page.getByRole('checkbox', { name: t.aggregatorOffer }).check();
    await field(page, m.email.label).fill('changed@example.com');
    await reload(page, t.title);
    expect(await page.getByRole('checkbox', { name: t.aggregatorOffer }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: t.executorOffer }).isChecked()).toBe(false);
    expect(await field(page, m.email.label).inputValue()).toBe('changed@example.com');
    // Back is the first step, as before the reload.
    await page.getByRole('button', { name: m.app.back }).tap();
    await page.getByRole('button', { name: m.app.continue }).waitFor();
    expect(await violationsOf(page)).toEqual([]);
  });

  test('the first step 2 s after typing the e-mail, then the way to pay chosen', async () => {
    const { page } = await openPage();
    // The page's clock, run forward: two seconds pass for the page without the journey waiting them.
    await page.clock.install();
    await open(page, 'demo-anon');
    await field(page, m.email.label).fill('payer@example.com');
    await page.clock.runFor(2000);
    await reload(page, /Оплата по договору/);
    expect(await field(page, m.email.label).inputValue()).toBe('payer@example.com');
    await page.getByRole('button', { name: m.app.continue }).click();
    await page.getByRole('radio', { name: /SberPay/ }).check();
    await reload(page, t.title);
    expect(await page.getByRole('radio', { name: /SberPay/ }).isChecked()).toBe(true);
    expect(await field(page, m.email.label).inputValue()).toBe('payer@example.com');
  });

  test('the points screen, the restore and registration forms and the sign-in form keep what was typed (never a password)', async () => {
    const { page } = await openPage();
    await open(page, 'demo-points');
    await page.getByRole('button', { name: m.points.use }).click();
    await page.getByRole('heading', { name: m.points.blockTitle }).waitFor();
    await reload(page, m.points.blockTitle);
    await page.getByLabel(stepMessages.usePoints.input).waitFor();

    await open(page, 'demo-reg');
    await field(page, stepMessages.signIn.phone).fill('9990000002');
    await field(page, stepMessages.signIn.password).fill('secret');
    await reload(page, stepMessages.signIn.title);
    expect(await field(page, stepMessages.signIn.phone).inputValue()).toBe('+7 (999) 000-00-02');
    expect(await field(page, stepMessages.signIn.password).inputValue()).toBe('');

    await fillRegistration(page, { surname: 'Петров', name: 'Пётр', patronymic: 'Петрович', phone: '79991112233' });
    await reload(page, stepMessages.register.title);
    expect(await field(page, stepMessages.register.surname).inputValue()).toBe('Петров');
    expect(await field(page, stepMessages.register.patronymic).inputValue()).toBe('Петрович');
    expect(await field(page, stepMessages.signIn.phone).inputValue()).toBe('+7 (999) 111-22-33');
    // The consent is asked again: a box ticked for the payer is no consent.
    expect(await page.getByLabel(stepMessages.register.privacy).isChecked()).toBe(false);

    await page.getByRole('button', { name: m.app.back }).click();
    await page.getByRole('link', { name: stepMessages.signIn.forgot }).click();
    await field(page, stepMessages.signIn.phone).fill('9990000002');
    await reload(page, stepMessages.forgotPassword.title);
    expect(await field(page, stepMessages.signIn.phone).inputValue()).toBe('+7 (999) 000-00-02');
  });

  test('the free-call screen, and the result of a declined fast payment', async () => {
    const phone = '79990000002';
    const { page } = await openPage();
    await open(page, 'demo-reg');
    await page.getByRole('link', { name: stepMessages.signIn.forgot }).click();
    await field(page, stepMessages.signIn.phone).fill(phone.slice(1));
    await page.getByLabel(stepMessages.robot.standIn).check();
    await page.getByRole('button', { name: m.app.continue }).click();
    await page.getByRole('heading', { name: stepMessages.code.sent }).waitFor();
    await page.getByRole('link', { name: stepMessages.code.freeCallHint }).click();
    await page.getByRole('heading', { name: stepMessages.freeCall.title }).waitFor();
    await reload(page, stepMessages.freeCall.title);
    // The line waits for the same phone, which the screen names.
    await page.getByText(stepMessages.freeCall.callFrom('+7 (999) ***-**-02')).waitFor();
    await page.getByRole('status').filter({ hasText: stepMessages.freeCall.waiting }).waitFor();

    await payAnonymously(page, /СБП/);
    await page.getByText(stepMessages.sbp.desktopTitle).waitFor();
    // The bank declines it in its app (the sandbox's page of the QR, at the payload the list's last row opens).
    await page.getByRole('button', { name: bankListMessages.openList }).click();
    const payload = (await page.getByRole('link', { name: new RegExp(`^${stepMessages.sbp.openBankApp}`) }).getAttribute('href'))!;
    await fetch(payload, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'outcome=decline' });
    await page.getByRole('status').filter({ hasText: stepMessages.status.declined }).waitFor({ timeout: 20_000 });
    expect(hash(page)).toBe('#/result');
    await reload(page, stepMessages.status.resultTitle);
    await page.getByRole('status').filter({ hasText: stepMessages.status.declined }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: receiptMessages.retry }).click();
    await page.getByRole('heading', { name: t.title }).waitFor();
    expect(await page.getByRole('radio', { name: /СБП/ }).isChecked()).toBe(true);
  });
});

describe('Back returns to the way to pay with everything kept', () => {
  test("from the acquirer's card form: the attempt is said to be open; going back to it opens the same form, no second order", async () => {
    const { page } = await openPage(MOBILE);
    await payAnonymously(page, /Банковская карта/, 'tap');
    await page.waitForURL(/\/sandbox\/acquirer\//);
    const form = page.url();

    await page.goBack();
    await page.getByRole('heading', { name: t.title }).waitFor();
    await page.getByRole('status').filter({ hasText: t.openTitle }).waitFor();
    // The open attempt comes before any other way.
    expect(await page.getByRole('radio').count()).toBe(0);
    expect(await violationsOf(page)).toEqual([]);

    await page.getByRole('button', { name: t.openResume }).tap();
    await page.waitForURL(/\/sandbox\/acquirer\//);
    expect(page.url()).toBe(form);

    // Back again, and another way: fast payment's QR, with no 'Не указан email'.
    await page.goBack();
    await page.getByRole('button', { name: t.openAnother }).tap();
    await page.getByRole('button', { name: t.openConfirm }).tap();
    // Everything kept: the e-mail and the way chosen before.
    expect(await field(page, m.email.label).inputValue()).toBe('payer@example.com');
    expect(await page.getByRole('radio', { name: /Банковская карта/ }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: /СБП/ }).check();
    await page.getByRole('button', { name: PAY }).tap();
    await page.getByRole('heading', { name: bankListMessages.chooseBank }).waitFor();
  });

  test('from fast payment after a reload: the way to pay with the e-mail kept, and Pay works', async () => {
    const { page } = await openPage();
    await payAnonymously(page, /СБП/);
    await page.getByText(stepMessages.sbp.desktopTitle).waitFor();
    await reload(page, 'СБП');
    await page.goBack();
    await page.getByRole('heading', { name: t.title }).waitFor();
    await page.getByRole('status').filter({ hasText: t.openTitle }).waitFor();
    await page.getByRole('button', { name: t.openAnother }).click();
    await page.getByRole('button', { name: t.openConfirm }).click();
    expect(await field(page, m.email.label).inputValue()).toBe('payer@example.com');
    await page.getByRole('radio', { name: /Банковская карта/ }).check();
    await page.getByRole('button', { name: PAY }).click();
    await page.waitForURL(/\/sandbox\/acquirer\//);
    expect(await page.getByText(stepMessages.validation.emailRequired).count()).toBe(0);
  });
});

test('a declined card: the amount, the reason and the ways forward; fast payment opens the way to pay with it chosen and names what failed', async () => {
  const { page } = await openPage(MOBILE);
  await payAnonymously(page, /Банковская карта/, 'tap');
  await page.waitForURL(/\/sandbox\/acquirer\//);
  await payWithCard(page, TEST_CARDS.declined);
  await page.waitForURL(/\/fail\?/);
  const details = page.getByRole('region', { name: receiptMessages.declinedTitle });
  await details.waitFor({ timeout: 20_000 });
  expect(await details.textContent()).toMatch(/12\s530,86 руб\..*Банковская карта, 400000\*\*0002.*Недостаточно средств на карте/);
  await page.getByRole('link', { name: receiptMessages.anotherCard }).waitFor();
  await page.getByText(receiptMessages.support).waitFor();
  expect(await violationsOf(page)).toEqual([]);

  await page.getByRole('link', { name: receiptMessages.fastPaymentNoFee }).tap();
  await page.getByRole('heading', { name: t.title }).waitFor();
  expect(await page.getByRole('radio', { name: /СБП/ }).isChecked()).toBe(true);
  const notice = page.getByRole('status').filter({ hasText: t.retryTitle });
  expect(await notice.textContent()).toMatch(/Банковская карта, 12\s530,86 руб\..*Недостаточно средств на карте/);
  expect(await field(page, m.email.label).inputValue()).toBe('payer@example.com');
});

test('a wrong code says how many tries are left, with no robot check; the right one then goes on', async () => {
  const { page } = await openPage(MOBILE);
  await open(page, 'demo-points');
  await page.getByRole('button', { name: m.points.use }).tap();
  await page.getByLabel(stepMessages.usePoints.input).fill('1000');
  await page.getByRole('button', { name: m.points.use }).tap();
  await page.getByRole('heading', { name: stepMessages.code.sent }).waitFor();
  const code = await smsCode(live.server, await codeScreenPhone(live.server, page));
  await typeCode(page, code === '0000' ? '1111' : '0000');
  await page.getByRole('alert').filter({ hasText: stepMessages.code.rejected }).filter({ hasText: stepMessages.code.triesLeft(4) }).waitFor();
  expect(await page.getByLabel(stepMessages.robot.standIn).count()).toBe(0);
  expect(await violationsOf(page)).toEqual([]);
  await typeCode(page, code);
  await page.getByText(/^Использовано баллов: 1\s000 баллов$/).waitFor();
  // Points chosen: the block offers to change them.
  await page.getByRole('button', { name: m.points.change }).waitFor();
});

test('registration, then the sign-in form with the phone filled in and focus on the password', async () => {
  const phone = '79992223344';
  const { page } = await openPage(MOBILE);
  await open(page, 'demo-reg');
  await fillRegistration(page, { surname: 'Петров', name: 'Пётр', patronymic: 'Петрович', phone });
  await page.getByRole('button', { name: m.app.continue }).tap();
  await page.getByRole('heading', { name: stepMessages.code.sent }).waitFor();
  await page.getByText(stepMessages.code.sentTo('+7 (999) ***-**-44')).waitFor();
  const before = await newestSmsId(live.server, phone);
  await typeCode(page, await smsCode(live.server, phone));

  await page.getByText(stepMessages.signIn.registrationSuccess).waitFor();
  expect(await field(page, stepMessages.signIn.phone).inputValue()).toBe('+7 (999) 222-33-44');
  // Only the password is left to type: focus is there.
  await page.waitForFunction(() => document.activeElement?.getAttribute('type') === 'password');
  const [, password] = await smsMatching(live.server, phone, /пароль: (\S+)$/, before);
  await page.keyboard.type(password!);
  await page.keyboard.press('Enter');
  await page.getByText('ID: +7 (999) 222-33-44').waitFor();
});
