import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { freePort } from '../../scripts/freePort';
import { CHROMIUM, chromiumOptions, SHARED_CHROMIUM_VARIABLE } from './chromium';
import { buildApp } from '../../server/app';
import { defaultOptions } from '../../server/config';
import { STATUS_POLL_MS } from '../../src/machines/paymentStatus';
import { maskPhone } from '../../src/services/rules/phone';
import { messages } from '../../src/services/messages';
import { stepMessages } from '../../src/services/stepMessages';
import { seedDemo } from '../../server/sandbox/demoBills';
import { migratedDatabase, TEST_PASSWORD_COST } from '../support/testDatabase';
import { billByLink } from '../../server/billing/queries';
import { TEST_CARDS } from '../../server/sandbox/acquirer';
import { attemptNamed } from '../../server/payments/queries';

export { CHROMIUM };

export const distDir = path.resolve(__dirname, '..', '..', process.env.DIST_DIR ?? 'dist');

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  stop(): Promise<void>;
}

/** The server's own calls out (the bank list's logos) fail as with no network, so no journey depends on one. */
const offlineFetch: typeof fetch = async () => {
  throw new TypeError('fetch failed: the journeys run offline');
};

/**
 * How often the journeys' pages ask for a payment's status or a free call's outcome: the page's own 5000 ms is the
 * payer's pace, and a journey would only wait for it (the machines' tests check that pace on a fake clock).
 */
export const JOURNEY_POLL_MS = 250;

/**
 * The per-client limit of every request (600 a minute in production) raised as the polls are sped up: a file's
 * journeys all come from one address, one after another, their pages polling 20 times a payer's pace. At 600, a
 * file that pays as often as the accessibility walk (a journey every few seconds for a minute and a half) met the
 * limit: a Pay refused with 429 "Слишком много запросов". The routes' own limits (codes, sign-in, SMS) stay as they are.
 */
export const JOURNEY_RATE_LIMIT_PER_MINUTE = defaultOptions().rateLimitPerMinute * (STATUS_POLL_MS / JOURNEY_POLL_MS);

/**
 * The real server on a free port with a database of its own on the file's engine (a copy of the run's migrated SQLite
 * file in a temporary folder, or a new PostgreSQL database), seeded with the demo bills on the real clock. Passwords
 * are hashed at the tests' low cost (the cost travels inside each hash, so signing in reads it from there), the page
 * polls at JOURNEY_POLL_MS and the per-client limit is JOURNEY_RATE_LIMIT_PER_MINUTE.
 */
export async function startServer(overrides: Parameters<typeof buildApp>[0] = {}): Promise<RunningServer> {
  if (!fs.existsSync(path.join(distDir, 'index.html'))) {
    throw new Error(`The page is not built in ${distDir}: run \`npm run build\` first (npm test does it).`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'checkout-e2e-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const database = await migratedDatabase(dir);
  const app = await buildApp({
    databaseUrl: database.databaseUrl,
    databasePath: database.databasePath,
    distDir,
    publicUrl: url,
    logger: false,
    sbpFetch: offlineFetch,
    passwordCost: TEST_PASSWORD_COST,
    pagePollMs: JOURNEY_POLL_MS,
    rateLimitPerMinute: JOURNEY_RATE_LIMIT_PER_MINUTE,
    ...overrides,
  });
  await seedDemo(app.store, TEST_PASSWORD_COST);
  await app.listen({ port, host: '127.0.0.1' });
  return {
    app,
    url,
    stop: async () => {
      await app.close();
      await database.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The real server and Chromium of a test file, as `live.server` and `live.browser`. */
export interface Live {
  server: RunningServer;
  browser: Browser;
}

/**
 * Starts the real server and Chromium before the tests of the file (or describe block) it is called in, and stops
 * both after them. `options` gives the server's options when it starts (after the file's own earlier beforeAll).
 */
export function useLiveServer(options: () => Parameters<typeof buildApp>[0] = () => ({})): Live {
  const live = {} as Live;
  beforeAll(async () => {
    [live.server, live.browser] = await Promise.all([startServer(options()), launchBrowser()]);
  });
  afterAll(async () => {
    await live.browser?.close();
    await live.server?.stop();
  });
  return live;
}

/**
 * Chromium for a test file: a connection to the run's shared browser when there is one (each test's own contexts keep
 * the tests apart; closing the connection closes them), else a browser of its own. Every context made on it reports
 * its pages' errors to the journey running (watchPages).
 */
export async function launchBrowser(): Promise<Browser> {
  const shared = process.env[SHARED_CHROMIUM_VARIABLE];
  return watched(shared ? await chromium.connect(shared) : await chromium.launch(chromiumOptions()));
}

/** The browser, its contexts made (newContext, or newPage's own) with their pages watched. */
function watched(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    watchPages(context);
    return context;
  };
  return browser;
}

/**
 * Reports each page's uncaught errors and the errors it logs to the journey running (test/e2e/environment.ts fails
 * the test with them). Chromium's own line for an answer with an error status is left out: journeys provoke those on
 * purpose (a paid bill's 409), and what the page does with them is what they check.
 */
function watchPages(context: BrowserContext) {
  const watch = (page: Page) => {
    page.on('pageerror', (error) => globalThis.checkoutJourney?.pageError(error, page.url()));
    page.on('console', (message) => {
      if (message.type() !== 'error' || message.text().startsWith('Failed to load resource: ')) return;
      globalThis.checkoutJourney?.consoleError(message.text(), page.url());
    });
  };
  context.pages().forEach(watch);
  context.on('page', watch);
}

export const DESKTOP = { viewport: { width: 1280, height: 900 }, locale: 'ru-RU' } as const;
export const MOBILE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, locale: 'ru-RU' } as const;
/** The two widths a screen is checked at: its name (px) and the browser's options. */
export const WIDTHS = [
  ['1280', DESKTOP],
  ['375', MOBILE],
] as const;

/**
 * Pages for the tests of a file: each in a fresh context of the device (its page errors and console errors fail the
 * test: watchPages); the contexts close after each test.
 */
export function usePages(live: Live) {
  const contexts: BrowserContext[] = [];
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  return async function openPage(device: typeof DESKTOP | typeof MOBILE = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
    const context = await newContext(live.browser, device);
    contexts.push(context);
    const page = await context.newPage();
    return { context, page };
  };
}

/** From the bill page through the e-mail to the choose-payment-type step (with its title, or points covering all). */
export async function toChoosePaymentType(page: Page, server: RunningServer, objectOID: string) {
  await page.goto(`${server.url}/pay/${objectOID}`);
  await page.getByLabel(messages.email.label).fill('payer@example.com');
  await page.getByRole('button', { name: messages.app.continue }).click();
  await page.getByRole('heading', { name: new RegExp(`${stepMessages.choosePaymentType.title}|${stepMessages.choosePaymentType.coveredByPoints}`) }).waitFor();
}

/** On the choose-payment-type step: the card, Pay, and the sandbox acquirer's form with a test card; back on the result page. */
export async function payByCardFromChoose(page: Page, card: string) {
  await page.getByRole('radio', { name: /Банковская карта/ }).check();
  await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
  await page.waitForURL(/\/sandbox\/acquirer\//);
  await payWithCard(page, card);
  await page.waitForURL(/\/(success|fail)\?billOid=.*orderId=/);
}

/**
 * From a bill with points (demo-points) through the points code to a card payment with `points` spent, back on the
 * result page with its success said.
 */
export async function payWithPointsAndCard(page: Page, server: RunningServer, bill: string, points: number) {
  await page.goto(`${server.url}/pay/${bill}`);
  await page.getByRole('button', { name: messages.points.use }).click();
  await page.getByLabel(stepMessages.usePoints.input).fill(String(points));
  await page.getByRole('button', { name: messages.points.use }).click();
  await page.getByRole('heading', { name: stepMessages.code.sent }).waitFor();
  await typeCode(page, await smsCode(server, await codeScreenPhone(server, page)));
  await page.getByLabel(messages.email.label).fill('payer@example.com');
  await page.getByRole('button', { name: messages.app.continue }).click();
  await payByCardFromChoose(page, TEST_CARDS.pays);
  await page.getByRole('status').filter({ hasText: stepMessages.status.success }).waitFor({ timeout: 30_000 });
}

/**
 * The merchant refunds a payment (by any of its ids) through its API with the sandbox's development key, as its ERP
 * would, and the refund is made at the sandbox acquirer before this answers. `amount`: roubles with two decimals;
 * absent, all that is left.
 */
export async function merchantRefund(server: RunningServer, paymentId: string, amount?: string): Promise<void> {
  // The result page's address names the acquirer's order; the API names ours.
  const orderId = (await attemptNamed(server.app.store, paymentId))!.order_id;
  const response = await fetch(`${server.url}/merchant/v1/payments/${orderId}/refunds`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.app.merchant.devApiKey!}`, 'idempotency-key': `refund-${orderId}-${amount ?? 'rest'}`, 'content-type': 'application/json' },
    body: JSON.stringify(amount ? { amount: { value: amount, currency: 'RUB' } } : {}),
  });
  if (response.status !== 201) throw new Error(`the refund answered ${response.status}: ${await response.text()}`);
  await server.app.gateway.makeRefunds(orderId);
}

/**
 * A browser context of the device on a journeys' browser (launchBrowser): a page error in it fails the running test at
 * once, and an error its pages log fails it when it ends (test/e2e/environment.ts).
 */
export async function newContext(browser: Browser, options: BrowserContextOptions = DESKTOP): Promise<BrowserContext> {
  return browser.newContext({ ...options });
}

/**
 * Counts the page's history moves (its 'popstate' events), each noted with the address it came to once every listener
 * of it has run (the task after it). Start it before the move; `moved(n)` waits for the n-th and answers
 * the addresses: a check after it sees what the page made of the move, however slow the machine.
 */
export async function watchHistoryMoves(page: Page) {
  await page.evaluate(() => {
    const moves: string[] = [];
    (window as unknown as { journeyHistoryMoves: string[] }).journeyHistoryMoves = moves;
    window.addEventListener('popstate', () => {
      // The address the move came to; noted once the listeners of this move (the page's first) have all run.
      const hash = window.location.hash;
      setTimeout(() => moves.push(hash), 0);
    });
  });
  return {
    moved: async (count: number): Promise<string[]> => {
      await page.waitForFunction((n) => (window as unknown as { journeyHistoryMoves: string[] }).journeyHistoryMoves.length >= n, count);
      return page.evaluate(() => [...(window as unknown as { journeyHistoryMoves: string[] }).journeyHistoryMoves]);
    },
  };
}

/** A fresh unpaid copy of a demo bill, so journeys never fight over one bill. */
export async function freshBill(server: RunningServer, from: string): Promise<string> {
  const response = await fetch(`${server.url}/sandbox/bills`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ from }),
  });
  if (response.status !== 201) throw new Error(`POST /sandbox/bills answered ${response.status}`);
  return ((await response.json()) as { objectOID: string }).objectOID;
}

/**
 * The sandbox free-call line takes a call from `phone`. It wants a session's CSRF token like any POST, so it first
 * opens the line's page for a session and the token, as a tester's browser would.
 */
export async function callFreeLine(server: RunningServer, phone: string): Promise<Response> {
  const page = await fetch(`${server.url}/sandbox/free-call`);
  const cookie = page.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const token = /<meta name="csrf-token" content="([^"]+)"/.exec(await page.text())?.[1] ?? '';
  return fetch(`${server.url}/sandbox/free-call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': token },
    body: JSON.stringify({ phone }),
  });
}

/** Pays on the sandbox acquirer's card form with a test card. */
export async function payWithCard(page: Page, card: string) {
  await page.getByLabel('Номер карты').fill(card);
  await page.getByLabel('Срок действия').fill('12/30');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Оплатить' }).click();
}

interface Sms {
  id: number;
  text: string;
}

/** The check code in an SMS of the sandbox outbox. */
export const SMS_CODE = /Код подтверждения: (\d{4})/;

/** The sandbox SMS outbox of a phone, newest first. */
async function outbox(server: RunningServer, phone: string): Promise<Sms[]> {
  const response = await fetch(`${server.url}/sandbox/sms?phone=${phone}`);
  const { messages: sent } = (await response.json()) as { messages: Sms[] };
  return sent.sort((a, b) => b.id - a.id);
}

/** The newest SMS to the phone, after the one numbered `after`, whose text matches (waits for it to arrive). */
export async function smsMatching(server: RunningServer, phone: string, pattern: RegExp = SMS_CODE, after = 0): Promise<RegExpExecArray> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    for (const sms of await outbox(server, phone)) {
      const match = sms.id > after ? pattern.exec(sms.text) : null;
      if (match) return match;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no SMS to ${phone} matching ${pattern}`);
}

/** The newest check code sent to the phone. */
export const smsCode = async (server: RunningServer, phone: string, after = 0): Promise<string> => (await smsMatching(server, phone, SMS_CODE, after))[1]!;

/** The number of the newest SMS to the phone (0 when none), to wait for a later one. */
export const newestSmsId = async (server: RunningServer, phone: string): Promise<number> => (await outbox(server, phone))[0]?.id ?? 0;

/**
 * The phone the code screen says the code went to (fresh copies of demo bills have phones of their own), which the
 * screen shows masked: the phone the payer typed (`typed`) when it is that one, else the bill customer's (a points
 * code's) from the server's records, once the screen's masked phone is seen to be its.
 */
export async function codeScreenPhone(server: RunningServer, page: Page, typed?: string): Promise<string> {
  const shown = ((await page.getByText(/^на номер /).textContent()) ?? '').replace(/^на номер /, '');
  if (typed && maskPhone(typed) === shown) return typed;
  const link = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
  const phone = (await billByLink(server.app.store, link))?.client_phone;
  if (!phone || maskPhone(phone) !== shown) throw new Error(`the code screen shows ${shown}, not the phone of bill ${link}`);
  return phone;
}

/** Types a code into the code screen's four boxes (the fourth submits it). */
export async function typeCode(page: Page, code: string) {
  await page.getByLabel(stepMessages.code.digit(1)).focus();
  await page.keyboard.type(code);
}

type Person = { surname: string; name: string; patronymic: string; phone: string };

/** Fills the registration form from the sign-in form's link, the consent and the robot check ticked (Continue not pressed). */
export async function fillRegistration(page: Page, person: Person) {
  await page.getByRole('link', { name: stepMessages.signIn.register }).click();
  await page.getByRole('heading', { name: stepMessages.register.title }).waitFor();
  await fillRegistrationForm(page, person);
}

/** The registration form, on screen, filled in with its agreement and the robot check ticked. */
export async function fillRegistrationForm(page: Page, person: Person) {
  await page.getByLabel(stepMessages.register.surname).fill(person.surname);
  await page.getByLabel(stepMessages.register.name).fill(person.name);
  await page.getByLabel(stepMessages.register.patronymic).fill(person.patronymic);
  await page.getByLabel(stepMessages.signIn.phone, { exact: true }).fill(person.phone.slice(1));
  await page.getByLabel(stepMessages.register.privacy).check();
  await page.getByLabel(stepMessages.robot.standIn).check();
}
