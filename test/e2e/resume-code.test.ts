import type { Page } from 'playwright-core';
import { maskPhone } from '../../server/codes';
import { messages } from '../../src/services/messages';
import { stepMessages } from '../../src/services/stepMessages';
import { codeScreenPhone, freshBill, smsCode, typeCode, useLiveServer, usePages } from './harness';

const m = messages;

/**
 * A reload on the code screen (issue 17), in Chromium against the real server: the points code sent before the reload
 * is still valid, so the screen comes back with the server's countdown; the right code proves the phone, and the
 * points chosen again apply at once.
 */

jest.setTimeout(90_000);

const live = useLiveServer();
const openPage = usePages(live);
const hash = (page: Page) => new URL(page.url()).hash;
const countdown = /^Повторная отправка кода возможна через (\d+) секунд/;

test('points → code sent → reload → the code screen with the countdown → the right code → the points apply', async () => {
  const { page } = await openPage();
  const bill = await freshBill(live.server, 'demo-points');
  await page.goto(`${live.server.url}/pay/${bill}`);
  await page.getByRole('button', { name: m.points.use }).click();
  await page.getByLabel(stepMessages.usePoints.input).fill('1000');
  await page.getByRole('button', { name: m.points.use }).click();
  await page.getByRole('heading', { name: m.code.sent }).waitFor();
  const phone = await codeScreenPhone(page);
  expect(hash(page)).toBe('#/checkSendCode');

  // Some seconds pass: the countdown after the reload is the server's, not a fresh 60.
  await page.waitForTimeout(2500);
  await page.reload();
  await page.getByRole('heading', { name: m.code.sent }).waitFor();
  expect(hash(page)).toBe('#/checkSendCode');
  await page.getByText(m.code.sentTo(maskPhone(phone))).waitFor();
  const seconds = Number(countdown.exec((await page.getByText(countdown).textContent()) ?? '')?.[1]);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(58);
  // The screen is for typing the code: the first box has focus.
  await page.waitForFunction((label) => document.activeElement?.getAttribute('aria-label') === label, m.code.digit(1));

  await typeCode(page, await smsCode(live.server, phone));
  // The points asked for before the reload are chosen again; the phone is proven, so no second code.
  await page.getByLabel(stepMessages.usePoints.input).waitFor();
  expect(hash(page)).toBe('#/usePoints');
  await page.getByLabel(stepMessages.usePoints.input).fill('1000');
  await page.getByRole('button', { name: m.points.use }).click();
  await page.getByText(/^Использовано баллов: 1\s000 баллов$/).waitFor();
  await page.waitForFunction(() => window.location.hash === '#/noReg');
});
