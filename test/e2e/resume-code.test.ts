import type { Page } from 'playwright-core';
import { maskPhone } from '../../src/services/rules/phone';
import { messages } from '../../src/services/messages';
import { stepMessages } from '../../src/services/stepMessages';
import { violationsOf } from './a11y';
import { codeScreenPhone, fillRegistration, freshBill, MOBILE, newestSmsId, smsCode, smsMatching, typeCode, useLiveServer, usePages } from './harness';

const m = messages;

/**
 * A reload on the code screen, in Chromium against the real server: while the code sent before the reload
 * is valid, the screen comes back with the server's countdown and the phone masked, and the right code finishes the
 * flow as without the reload, from what this tab kept of the step's form (the restore phone, the registration form,
 * the points). A code that ran out sends the payer to the flow's form, the step before, and the address bar says so.
 */

jest.setTimeout(90_000);

// The server's clock runs ahead on demand, so that a code may run out without waiting ten minutes.
let clockAhead = 0;
const live = useLiveServer(() => ({ now: () => Date.now() + clockAhead }));
const openPage = usePages(live);
const hash = (page: Page) => new URL(page.url()).hash;

/** Waits until the address bar names the step (a step never put there fails the test by its time-out). */
const addressBarSays = (page: Page, step: string) => page.waitForFunction((expected) => window.location.hash === expected, step);
const countdown = /^Повторная отправка кода возможна через (\d+) секунд/;
const NEW_PASSWORD = /пароль: (\S+)$/;

/** Some seconds pass (on the server's clock), then the reload: the code screen comes back with the server's countdown, not a fresh 60. */
async function reloadOnCodeScreen(page: Page, phone: string) {
  expect(hash(page)).toBe('#/checkSendCode');
  clockAhead += 2500;
  await page.reload();
  await page.getByRole('heading', { name: stepMessages.code.sent }).waitFor();
  expect(hash(page)).toBe('#/checkSendCode');
  await page.getByText(stepMessages.code.sentTo(maskPhone(phone))).waitFor();
  const seconds = Number(countdown.exec((await page.getByText(countdown).textContent()) ?? '')?.[1]);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(58);
  // The screen is for typing the code: the first box has focus.
  await page.waitForFunction((label) => document.activeElement?.getAttribute('aria-label') === label, stepMessages.code.digit(1));
  expect(await violationsOf(page)).toEqual([]);
}

/** Types the code the phone got; gives the number of that SMS, to wait for the one the code's flow sends next. */
async function typeSmsCode(page: Page, phone: string): Promise<number> {
  const code = await smsCode(live.server, phone);
  const before = await newestSmsId(live.server, phone);
  await typeCode(page, code);
  return before;
}

async function askForPointsCode(page: Page, bill: string) {
  await page.goto(`${live.server.url}/pay/${bill}`);
  await page.getByRole('button', { name: m.points.use }).click();
  await page.getByLabel(stepMessages.usePoints.input).fill('1000');
  await page.getByRole('button', { name: m.points.use }).click();
  await page.getByRole('heading', { name: stepMessages.code.sent }).waitFor();
  return codeScreenPhone(live.server, page);
}

test('points → code sent → reload → the code screen with the countdown → the right code spends the points asked for', async () => {
  const { page } = await openPage();
  const bill = await freshBill(live.server, 'demo-points');
  const phone = await askForPointsCode(page, bill);
  await reloadOnCodeScreen(page, phone);

  await typeCode(page, await smsCode(live.server, phone));
  // The points asked for before the reload were kept: they apply with the right code, nothing typed again.
  await page.getByText(/^Использовано баллов: 1\s000 баллов$/).waitFor();
  await page.waitForFunction(() => window.location.hash === '#/noReg');
});

test('restore password → code sent → reload → the code screen → the right code sends the new password by SMS', async () => {
  const phone = '79990000002';
  const { page } = await openPage(MOBILE);
  await page.goto(`${live.server.url}/pay/${await freshBill(live.server, 'demo-reg')}`);
  await page.getByRole('link', { name: stepMessages.signIn.forgot }).click();
  await page.getByLabel(stepMessages.signIn.phone, { exact: true }).fill(phone.slice(1));
  await page.getByLabel(stepMessages.robot.standIn).check();
  await page.getByRole('button', { name: m.app.continue }).click();
  await page.getByRole('heading', { name: stepMessages.code.sent }).waitFor();

  await reloadOnCodeScreen(page, phone);
  await page.getByRole('link', { name: stepMessages.code.freeCallHint }).waitFor();
  const before = await typeSmsCode(page, phone);

  // The flow's own end: the sign-in form says the new password went by SMS, and it did.
  await page.getByText(stepMessages.signIn.newPasswordSent).waitFor();
  await page.waitForFunction(() => window.location.hash === '#/reg');
  const [, password] = await smsMatching(live.server, phone, NEW_PASSWORD, before);
  expect(password).not.toBe('demo-pass');
});

test('registration → code sent → reload → the code screen → the right code registers with the form filled before the reload', async () => {
  const phone = '79991230017';
  const { page } = await openPage();
  await page.goto(`${live.server.url}/pay/${await freshBill(live.server, 'demo-reg')}`);
  await fillRegistration(page, { surname: 'Сидорова', name: 'Мария', patronymic: 'Ивановна', phone });
  await page.getByRole('button', { name: m.app.continue }).click();
  await page.getByRole('heading', { name: stepMessages.code.sent }).waitFor();

  await reloadOnCodeScreen(page, phone);
  const before = await typeSmsCode(page, phone);

  await page.getByText(stepMessages.signIn.registrationSuccess).waitFor();
  await page.waitForFunction(() => window.location.hash === '#/reg');
  // The account has the names typed before the reload: signed in with the SMS password, the page greets her.
  const [, password] = await smsMatching(live.server, phone, NEW_PASSWORD, before);
  await page.getByLabel(stepMessages.signIn.phone, { exact: true }).fill(phone.slice(1));
  await page.getByLabel(stepMessages.signIn.password).fill(password!);
  await page.getByRole('button', { name: m.app.continue }).click();
  await page.getByText('Мария Сидорова').waitFor();
});

// The last tests of the file: the server's clock stays ahead from here on.
test('a points code that ran out: the reload goes to the points step, the address bar says so, the points asked for shown', async () => {
  const { page } = await openPage();
  const phone = await askForPointsCode(page, await freshBill(live.server, 'demo-points'));
  expect(phone).toMatch(/^79\d{9}$/);
  clockAhead += 11 * 60_000;
  await page.reload();
  await page.getByLabel(stepMessages.usePoints.input).waitFor();
  // The server's rendering shows the step before the page's script takes over and puts it in the address bar.
  await addressBarSays(page, '#/usePoints');
  expect((await page.getByLabel(stepMessages.usePoints.input).inputValue()).replace(/\D/g, '')).toBe('1000');
  await page.getByRole('heading', { name: stepMessages.code.sent }).waitFor({ state: 'detached' });
  expect(await violationsOf(page)).toEqual([]);
  // Back leads to the main route, as from the points step before the reload.
  await page.getByRole('button', { name: m.app.back }).click();
  await page.waitForFunction(() => window.location.hash === '#/noReg');
});

test('a registration code that ran out: the reload goes to the client form with what was typed, the consent asked again', async () => {
  const phone = '79991230018';
  const { page } = await openPage(MOBILE);
  await page.goto(`${live.server.url}/pay/${await freshBill(live.server, 'demo-reg')}`);
  await fillRegistration(page, { surname: 'Кузнецова', name: 'Анна', patronymic: 'Сергеевна', phone });
  await page.getByRole('button', { name: m.app.continue }).click();
  await page.getByRole('heading', { name: stepMessages.code.sent }).waitFor();
  clockAhead += 11 * 60_000;
  await page.reload();
  await page.getByRole('heading', { name: stepMessages.register.title }).waitFor();
  await addressBarSays(page, '#/register');
  expect(await page.getByLabel(stepMessages.register.surname).inputValue()).toBe('Кузнецова');
  expect(await page.getByLabel(stepMessages.register.patronymic).inputValue()).toBe('Сергеевна');
  expect((await page.getByLabel(stepMessages.signIn.phone, { exact: true }).inputValue()).replace(/\D/g, '')).toBe(phone);
  expect(await page.getByLabel(stepMessages.register.privacy).isChecked()).toBe(false);
  expect(await violationsOf(page)).toEqual([]);
});
