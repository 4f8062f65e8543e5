import type { Browser, Page } from 'playwright-core';
import { bankListMessages } from '../src/services/bankListMessages';
import { freshBill } from '../test/support/httpTab';

const DESKTOP = { viewport: { width: 1280, height: 900 }, locale: 'ru-RU' } as const;
const MOBILE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, locale: 'ru-RU' } as const;

export interface JourneyOutcome {
  name: string;
  completed: boolean;
  error?: string;
}

/** From the bill page through the e-mail and the payment-type choice to pressing Pay. */
async function choose(page: Page, base: string, objectOID: string, type: RegExp) {
  await page.goto(`${base}/pay/${objectOID}`);
  await page.getByLabel('Email для отправки чека').fill('payer@example.com');
  await page.getByRole('button', { name: 'Продолжить' }).click();
  await page.getByRole('radio', { name: type }).check();
  await page.getByRole('button', { name: 'Оплатить' }).click();
}

const journeys: { name: string; device: typeof DESKTOP | typeof MOBILE; run: (page: Page, base: string) => Promise<void> }[] = [
  {
    name: 'card payment (anon)',
    device: MOBILE,
    run: async (page, base) => {
      await choose(page, base, await freshBill(base), /Банковская карта/);
      await page.waitForURL(/\/sandbox\/acquirer\//);
      await page.getByLabel('Номер карты').fill('4111111111111111');
      await page.getByLabel('Срок действия').fill('12/30');
      await page.getByLabel('CVC').fill('123');
      await page.getByRole('button', { name: 'Оплатить' }).click();
      // The acquirer's return URL: ours with the bill, the acquirer's orderId appended.
      await page.waitForURL(/\/success\?.*orderId=/);
      await page.getByRole('status').filter({ hasText: /./ }).first().waitFor();
    },
  },
  {
    name: 'SBP on a phone, bank-app page',
    device: MOBILE,
    run: async (page, base) => {
      await choose(page, base, await freshBill(base), /СБП/);
      // The bank list: its last link ('Открыть приложение банка') is the plain payload link, which the sandbox's bank app serves.
      await page.getByRole('link', { name: new RegExp(`^${bankListMessages.otherBank}`) }).click();
      await page.waitForURL(/\/sandbox\/sbp\//);
      await page.getByRole('button', { name: 'Оплатить' }).click();
      await page.waitForLoadState('load');
    },
  },
  {
    name: 'SBP on a desktop, QR',
    device: DESKTOP,
    run: async (page, base) => {
      await choose(page, base, await freshBill(base), /СБП/);
      await page.getByRole('img', { name: 'QR-код для оплаты через СБП' }).waitFor();
      await page.waitForFunction(() => [...document.images].every((image) => image.complete));
    },
  },
  {
    name: 'bank widget iframe on a desktop',
    device: DESKTOP,
    run: async (page, base) => {
      await choose(page, base, await freshBill(base), /SberPay/);
      const frame = page.locator('iframe').first();
      await frame.waitFor();
      await (await frame.elementHandle())!.contentFrame().then((f) => f!.waitForLoadState('load'));
      // Let the widget speak its protocol for a moment (postMessage, its own scripts and styles).
      await page.waitForTimeout(1000);
    },
  },
];

/**
 * The main browser journeys against the server, then the CSP violation reports it received (report-uri →
 * /csp-report, counted by GET /sandbox/csp-reports). Console messages about the policy are counted as well, in
 * case a report never reached the server.
 */
export async function cspJourneys(browser: Browser, base: string): Promise<{ cspViolations: number; consoleCspMessages: number; journeys: JourneyOutcome[] }> {
  const before = ((await (await fetch(`${base}/sandbox/csp-reports`)).json()) as { count: number }).count;
  const outcomes: JourneyOutcome[] = [];
  let consoleCspMessages = 0;
  for (const journey of journeys) {
    const context = await browser.newContext({ ...journey.device });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) consoleCspMessages++;
    });
    try {
      await journey.run(page, base);
      outcomes.push({ name: journey.name, completed: true });
    } catch (error) {
      outcomes.push({ name: journey.name, completed: false, error: String((error as Error).message).split('\n')[0] });
    }
    await context.close();
  }
  // Reports are sent after the fact; give the last ones a moment to arrive.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const after = (await (await fetch(`${base}/sandbox/csp-reports`)).json()) as { count: number; reports: unknown[] };
  return { cspViolations: after.count - before, consoleCspMessages, journeys: outcomes };
}
