import { violationsOf } from './a11y';
import type { Page } from 'playwright-core';
import { codeScreenPhone, fillRegistration, freshBill, newContext, newestSmsId, smsMatching, startServer, typeCode, useLiveServer } from './harness';
import { messages } from '../../src/services/messages';
import { stepMessages } from '../../src/services/stepMessages';

const m = messages;

// A project's testTimeout is not applied per project by jest; these journeys need more than the default 5 s.
jest.setTimeout(60_000);

const live = useLiveServer();

const PASSWORD = /пароль: (\S+)$/;

async function openBill(objectOID: string): Promise<Page> {
  const context = await newContext(live.browser);
  const page = await context.newPage();
  await page.goto(`${live.server.url}/pay/${objectOID}`);
  return page;
}

async function signIn(page: Page, phoneDigits: string, password: string) {
  await page.getByRole('heading', { name: stepMessages.signIn.title }).waitFor();
  await page.getByLabel(stepMessages.signIn.phone, { exact: true }).fill(phoneDigits);
  await page.getByLabel(stepMessages.signIn.password).fill(password);
  await page.getByRole('button', { name: m.app.continue }).click();
}

async function expectAccessible(page: Page) {
  expect(await violationsOf(page)).toEqual([]);
}

test('sign in to demo-reg and reach choosePaymentType', async () => {
  const page = await openBill(await freshBill(live.server, 'demo-reg'));
  await page.getByRole('heading', { name: stepMessages.signIn.title }).waitFor();
  await expectAccessible(page);
  await signIn(page, '9990000002', 'demo-pass');
  await page.getByText('ID: +7 (999) 000-00-02').waitFor();
  await page.getByLabel(m.email.label).fill('payer@example.com');
  await page.getByRole('button', { name: m.app.continue }).click();
  await page.getByRole('heading', { name: stepMessages.choosePaymentType.title }).waitFor();
  expect(page.url()).toMatch(/#\/choosePaymentType$/);
  await page.context().close();
});

test('a wrong password shows "Не удалось авторизоваться" and then the robot check', async () => {
  const page = await openBill(await freshBill(live.server, 'demo-reg'));
  await signIn(page, '9990000002', 'not-the-password');
  await page.getByText(stepMessages.signIn.failed).waitFor();
  const next = page.getByRole('button', { name: m.app.continue });
  expect(await next.isDisabled()).toBe(true);
  await page.getByLabel(stepMessages.robot.standIn).check();
  await page.getByLabel(stepMessages.signIn.password).fill('demo-pass');
  await next.click();
  await page.getByText('ID: +7 (999) 000-00-02').waitFor();
  await page.context().close();
});

test('register a new account and sign in with the password from the SMS', async () => {
  const phone = '79991234567';
  const page = await openBill(await freshBill(live.server, 'demo-reg'));
  await fillRegistration(page, { surname: 'Петров', name: 'Пётр', patronymic: 'Петрович', phone });
  await expectAccessible(page);
  await page.getByRole('button', { name: m.app.continue }).click();

  await page.getByRole('heading', { name: stepMessages.code.sent }).waitFor();
  await page.getByText('Повторная отправка кода возможна через').waitFor();
  await expectAccessible(page);
  const [, code] = await smsMatching(live.server, phone);
  const before = await newestSmsId(live.server, phone);
  await typeCode(page, code!);

  await page.getByText(stepMessages.signIn.registrationSuccess).waitFor();
  expect(page.url()).toMatch(/#\/reg$/);
  const [, password] = await smsMatching(live.server, phone, PASSWORD, before);
  await signIn(page, phone.slice(1), password!);
  await page.getByText('Пётр Петров').waitFor();
  await page.getByText('ID: +7 (999) 123-45-67').waitFor();
  await page.context().close();
});

test('restore a password by the SMS code and sign in with the new one', async () => {
  const phone = '79990000002';
  const page = await openBill(await freshBill(live.server, 'demo-reg'));
  await page.getByRole('link', { name: stepMessages.signIn.forgot }).click();
  await page.getByRole('heading', { name: stepMessages.forgotPassword.title }).waitFor();
  await page.getByLabel(stepMessages.signIn.phone, { exact: true }).fill(phone.slice(1));
  await page.getByLabel(stepMessages.robot.standIn).check();
  await expectAccessible(page);
  await page.getByRole('button', { name: m.app.continue }).click();

  await page.getByRole('heading', { name: stepMessages.code.sent }).waitFor();
  await page.getByRole('link', { name: stepMessages.code.freeCallHint }).waitFor();
  const [, code] = await smsMatching(live.server, phone);
  const before = await newestSmsId(live.server, phone);
  await typeCode(page, code!);

  await page.getByText(stepMessages.signIn.newPasswordSent).waitFor();
  const [, password] = await smsMatching(live.server, phone, PASSWORD, before);
  expect(password).not.toBe('demo-pass');
  await signIn(page, phone.slice(1), password!);
  await page.getByText('ID: +7 (999) 000-00-02').waitFor();
  await page.context().close();
});

test('spend points on a fresh demo-points through the SMS code and see them on choosePaymentType', async () => {
  const page = await openBill(await freshBill(live.server, 'demo-points'));
  await page.getByRole('button', { name: m.points.use }).click();
  await page.getByRole('heading', { name: m.points.blockTitle }).waitFor();
  await expectAccessible(page);
  const points = page.getByLabel(stepMessages.usePoints.input);
  await points.fill('1000');
  await page.getByRole('button', { name: m.points.use }).click();

  await page.getByRole('heading', { name: stepMessages.code.sent }).waitFor();
  // A fresh copy has a phone of its own (per-phone SMS limits); the screen says where the code went, masked: the
  // page never has the customer's whole phone.
  expect(await page.getByText(/^на номер /).textContent()).toMatch(/^на номер \+7 \(\d{3}\) \*{3}-\*{2}-\d{2}$/);
  const phone = await codeScreenPhone(live.server, page);
  const [, code] = await smsMatching(live.server, phone);
  await typeCode(page, code!);

  await page.getByText(`${messages.points.used}: 1 000 баллов`).waitFor();
  await page.getByLabel(m.email.label).fill('payer@example.com');
  await page.getByRole('button', { name: m.app.continue }).click();
  await page.getByRole('heading', { name: stepMessages.choosePaymentType.title }).waitFor();
  const used = page.locator('.summary-row', { hasText: messages.points.used });
  // The points as the discount they are, in roubles (Russian grouping puts a no-break space between thousands), and a
  // way to spend none.
  expect((await used.textContent())?.replace(/\s/g, ' ')).toBe(`${messages.points.used}−1 000,00 руб.${stepMessages.choosePaymentType.noPoints}`);
  await page.context().close();
});

test('forgot password by a free call: the page reloads signed in once the call came in', async () => {
  // A server of its own: a phone gets one SMS a minute, and the restore journey above just sent one to this phone.
  const own = await startServer();
  try {
    const phone = '79990000002';
    const context = await newContext(live.browser);
    const page = await context.newPage();
    await page.goto(`${own.url}/pay/${await freshBill(own, 'demo-reg')}`);
    await page.getByRole('link', { name: stepMessages.signIn.forgot }).click();
    await page.getByLabel(stepMessages.signIn.phone, { exact: true }).fill(phone.slice(1));
    await page.getByLabel(stepMessages.robot.standIn).check();
    await page.getByRole('button', { name: m.app.continue }).click();
    await page.getByRole('link', { name: stepMessages.code.freeCallHint }).click();

    await page.getByRole('heading', { name: stepMessages.freeCall.title }).waitFor();
    expect(await page.getByRole('link', { name: stepMessages.freeCall.call }).getAttribute('href')).toMatch(/^tel:\+?\d+$/);
    await page.getByText(stepMessages.freeCall.waiting).waitFor();
    await expectAccessible(page);
    // The call comes in through the sandbox line's own page, as a tester would make it (another browser: the line).
    // Listened for before the call: the page's next 5 s poll may reload it while the line is still answering.
    const reloaded = page.waitForEvent('load', { timeout: 20_000 });
    // Awaited below; if the test fails before that, the closed page must not also raise an unhandled rejection.
    reloaded.catch(() => undefined);
    const line = await newContext(live.browser);
    const linePage = await line.newPage();
    await linePage.goto(`${own.url}/sandbox/free-call`);
    await linePage.getByLabel('Телефон, с которого звонят').fill(phone);
    await linePage.getByRole('button', { name: 'Позвонить' }).click();
    await linePage.getByRole('status').filter({ hasText: 'Звонок принят: страница, которая его ждала, войдет в кабинет' }).waitFor();
    await line.close();

    // Polled every 5 s: the reload comes within one interval or so.
    await reloaded;
    await page.getByText('ID: +7 (999) 000-00-02').waitFor({ timeout: 15_000 });
    await context.close();
  } finally {
    await own.stop();
  }
});

test("the browser's Forward back into the signed-in account step hydrates it without an error", async () => {
  // A server of its own: the journeys above change the demo account's password and ask its phone for a robot check.
  const own = await startServer();
  try {
    const context = await newContext(live.browser);
    const page = await context.newPage();
    await page.goto(`${own.url}/pay/${await freshBill(own, 'demo-reg')}`);
    const errors: string[] = [];
    page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
    page.on('pageerror', (error) => void errors.push(error.message));
    await signIn(page, '9990000002', 'demo-pass');
    await page.getByText('ID: +7 (999) 000-00-02').waitFor();
    await page.getByLabel(m.email.label).fill('payer@example.com');
    await page.getByRole('button', { name: m.app.continue }).click();
    await page.getByRole('heading', { name: stepMessages.choosePaymentType.title }).waitFor();
    // Back to the signed-in step, Back out of the page, then Forward into it: the page loads again with this tab's draft
    // (the e-mail given), which the server's markup cannot show.
    await page.goBack();
    await page.getByText('ID: +7 (999) 000-00-02').waitFor();
    await page.goBack();
    expect(page.url()).toBe('about:blank');
    await page.goForward();
    await page.locator('[data-shown]').waitFor({ state: 'attached' });
    await page.getByText('ID: +7 (999) 000-00-02').waitFor();
    await page.getByRole('button', { name: m.app.continue, disabled: false }).waitFor();
    // Continue alone: the e-mail was given before.
    expect(await page.getByLabel(m.email.label).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  } finally {
    await own.stop();
  }
});
