import type { Browser, BrowserContext, Page } from 'playwright-core';
import { accountByPhone, insertAccount } from '../../server/accounts/accountQueries';
import { DEV_CAPTCHA_TOKEN } from '../../server/accounts/captcha';
import { hashPassword } from '../../server/accounts/passwords';
import { SANDBOX_SMSRU } from '../../server/config';
import { FAKE_LINES } from '../../server/sandbox/smsruFake';
import { messages } from '../../src/services/messages';
import { stepMessages } from '../../src/services/stepMessages';
import { fillRegistration, launchBrowser, newContext, newestSmsId, smsMatching, startServer, typeCode, type RunningServer } from './harness';

/**
 * The product with its sandbox off, talking to an SMS provider it knows only by SMSRU_* (and an acquirer by
 * ACQUIRER_*): another server's SMS.ru fake, over HTTP, as a deployment talks to SMS.ru. Codes and passwords are read
 * where the provider delivered them (the fake's /sandbox/sms), calls are made on its line, its faults switched there,
 * and its callbacks come to the product's /api/smsru/callback.
 */

jest.setTimeout(90_000);

const m = messages;
const PASSWORD = /пароль: (\S+)$/;

let browser: Browser;
/** The other party: the sandbox's SMS.ru (and RBS) fake, on a server of its own. */
let provider: RunningServer;
/** The product, sandbox off. */
let product: RunningServer;
/** The product's clock runs ahead by this much when a journey needs a minute to pass (one SMS a minute per phone). */
let ahead = 0;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [browser, provider] = await Promise.all([launchBrowser(), startServer()]);
  product = await startServer({
    sandbox: false,
    smsruApiId: SANDBOX_SMSRU.apiId,
    smsruUrl: `${provider.url}${SANDBOX_SMSRU.path}`,
    acquirerUrl: `${provider.url}/sandbox/rbs/payment/rest/`,
    acquirerUserName: 'sandbox-shop',
    acquirerPassword: 'sandbox-password',
    acquirerCallbackKey: await provider.app.callbackKey(),
    // No sandbox, so no stand-in captcha token passes by itself: a siteverify that knows hCaptcha's test answer.
    hcaptchaSecret: 'e2e-secret',
    captchaFetch: async (_url, init) => Response.json({ success: new URLSearchParams(String(init?.body)).get('response') === DEV_CAPTCHA_TOKEN }),
    now: () => Date.now() + ahead,
  });
  // The provider's account is told where the product hears its callbacks.
  await providerCall('/sandbox/smsru/settings', { callbackUrl: `${product.url}/api/smsru/callback` });
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
  await provider?.stop();
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

async function providerCall(path: string, body: unknown) {
  const answer = await fetch(`${provider.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(answer.status).toBe(200);
  return answer.json() as Promise<Record<string, unknown>>;
}
const fault = (name: string, on: boolean) => providerCall('/sandbox/smsru/faults', { fault: name, on });

async function openProduct(objectOID: string): Promise<Page> {
  const context = await newContext(browser);
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(`${product.url}/pay/${objectOID}`);
  return page;
}

/** An account of the product's own for a journey (each phone gets one SMS a minute). */
async function accountFor(phone: string) {
  if (!(await accountByPhone(product.app.store, phone))) {
    await insertAccount(product.app.store, { oid: `user-${phone}`, phone, surname: 'Звонова', name: 'Вера', patronymic: 'Ивановна', email: null, picture: null, password_hash: await hashPassword('old-pass', 1024) });
  }
}

async function signIn(page: Page, phone: string, password: string) {
  await page.getByRole('heading', { name: stepMessages.signIn.title }).waitFor();
  await page.getByLabel(stepMessages.signIn.phone, { exact: true }).fill(phone.slice(1));
  await page.getByLabel(stepMessages.signIn.password).fill(password);
  await page.getByRole('button', { name: m.app.continue }).click();
}

/**
 * Restore and registration end alike: the form sent, the code the provider delivered typed, the page says the password
 * is on its way (`sent`), and the password the provider delivered after the code signs in.
 */
async function signInByTextedPassword(page: Page, phone: string, sent: string) {
  await page.getByRole('button', { name: m.app.continue }).click();
  await page.getByRole('heading', { name: stepMessages.code.sent }).waitFor();
  const [, code] = await smsMatching(provider, phone);
  const before = await newestSmsId(provider, phone);
  await typeCode(page, code!);
  await page.getByText(sent).waitFor();
  const [, password] = await smsMatching(provider, phone, PASSWORD, before);
  await signIn(page, phone, password!);
}

/** From the sign-in form to the forgot-password form, the phone typed and the robot check ticked. */
async function toForgotPassword(page: Page, phone: string) {
  await page.getByRole('link', { name: stepMessages.signIn.forgot }).click();
  await page.getByRole('heading', { name: stepMessages.forgotPassword.title }).waitFor();
  await page.getByLabel(stepMessages.signIn.phone, { exact: true }).fill(phone.slice(1));
  await page.getByLabel(stepMessages.robot.standIn).check();
}

/** The forgot-password code asked for, then the free call chosen on the code screen: answers the number shown. */
async function toFreeCall(page: Page, phone: string): Promise<string> {
  await toForgotPassword(page, phone);
  await page.getByRole('button', { name: m.app.continue }).click();
  await page.getByRole('link', { name: stepMessages.code.freeCallHint }).click();
  await page.getByRole('heading', { name: stepMessages.freeCall.title }).waitFor();
  await page.getByText(stepMessages.freeCall.waiting).waitFor();
  return (await page.locator('.free-call-number strong').textContent()) ?? '';
}

/** The phone calls a number on the provider's line (its newest check's when none is named). */
const call = (phone: string, to?: string) => providerCall('/sandbox/free-call', to ? { phone, to } : { phone });

test('points are confirmed by the code the provider delivered', async () => {
  const page = await openProduct('demo-points');
  await page.getByRole('button', { name: m.points.use }).click();
  await page.getByLabel(stepMessages.usePoints.input).fill('1000');
  await page.getByRole('button', { name: m.points.use }).click();
  await page.getByRole('heading', { name: stepMessages.code.sent }).waitFor();
  const [, code] = await smsMatching(provider, '79990000001');
  await typeCode(page, code!);
  await page.getByText(`${m.points.used}: 1 000 баллов`).waitFor();
});

test('a password restored by the code, then used to sign in', async () => {
  const phone = '79990000002';
  const page = await openProduct('demo-reg');
  await toForgotPassword(page, phone);
  await signInByTextedPassword(page, phone, stepMessages.signIn.newPasswordSent);
  await page.getByText('ID: +7 (999) 000-00-02').waitFor();
});

test('registration: the code, then the password from the provider signs in', async () => {
  const phone = '79990008001';
  const page = await openProduct('demo-reg');
  await fillRegistration(page, { surname: 'Смсова', name: 'Анна', patronymic: 'Петровна', phone });
  await signInByTextedPassword(page, phone, stepMessages.signIn.registrationSuccess);
  await page.getByText('ID: +7 (999) 000-80-01').waitFor();
});

test("the free call shows the provider's number; the call to it signs in (the provider's callback, then the page's poll)", async () => {
  const phone = '79990008002';
  await accountFor(phone);
  const page = await openProduct('demo-reg');
  expect(await toFreeCall(page, phone)).toBe('+7 (800) 500-82-75');
  expect(await page.getByRole('link', { name: stepMessages.freeCall.call }).getAttribute('href')).toBe(`tel:+${FAKE_LINES[0]}`);
  const reloaded = page.waitForEvent('load', { timeout: 20_000 });
  reloaded.catch(() => undefined);
  expect(await call(phone)).toEqual({ success: true, answered: 1 });
  await reloaded;
  await page.getByText('ID: +7 (999) 000-80-02').waitFor({ timeout: 15_000 });
});

test('the provider down on send: the payer hears it on the form; once it is back the code comes and works', async () => {
  const phone = '79990008003';
  await accountFor(phone);
  const page = await openProduct('demo-reg');
  await toForgotPassword(page, phone);
  await fault('provider-500', true);
  try {
    await page.getByRole('button', { name: m.app.continue }).click();
    await page.getByRole('alert').filter({ hasText: stepMessages.code.smsFailed }).waitFor();
    await page.getByRole('heading', { name: stepMessages.forgotPassword.title }).waitFor();
  } finally {
    await fault('provider-500', false);
  }
  // The robot check's token went with the try: tick it again, and ask again.
  await page.getByLabel(stepMessages.robot.standIn).check();
  await page.getByRole('button', { name: m.app.continue }).click();
  await page.getByRole('heading', { name: stepMessages.code.sent }).waitFor();
  const [, code] = await smsMatching(provider, phone);
  await typeCode(page, code!);
  await page.getByText(stepMessages.signIn.newPasswordSent).waitFor();
});

describe('two sessions wait for a call from one phone (the takeover)', () => {
  /** The owner's page and then another's, both on the free-call screen for the phone (a minute apart: one SMS a minute). */
  async function twoWaiting(phone: string) {
    await accountFor(phone);
    const owner = await openProduct('demo-reg');
    const ownerNumber = await toFreeCall(owner, phone);
    ahead += 61_000;
    const other = await openProduct('demo-reg');
    const otherNumber = await toFreeCall(other, phone);
    return { owner, ownerNumber, other, otherNumber };
  }

  test('with different numbers, the call to the number on the owner\'s page signs in that page only', async () => {
    const phone = '79990008004';
    const { owner, ownerNumber, other, otherNumber } = await twoWaiting(phone);
    expect(otherNumber).not.toBe(ownerNumber);
    const reloaded = owner.waitForEvent('load', { timeout: 20_000 });
    reloaded.catch(() => undefined);
    expect(await call(phone, ownerNumber.replace(/\D/g, ''))).toEqual({ success: true, answered: 1 });
    await reloaded;
    await owner.getByText('ID: +7 (999) 000-80-04').waitFor({ timeout: 15_000 });
    // The other page goes on waiting for a call to its own number, and signs nobody in.
    await other.getByText(stepMessages.freeCall.waiting).waitFor();
    expect(await other.getByText('ID: +7 (999) 000-80-04').count()).toBe(0);
  });

  test('with the same number (a provider of one line), the call signs in neither and both are told to start again', async () => {
    const phone = '79990008005';
    await fault('single-line', true);
    try {
      const { owner, ownerNumber, other, otherNumber } = await twoWaiting(phone);
      expect(otherNumber).toBe(ownerNumber);
      expect(await call(phone)).toEqual({ success: true, answered: 2 });
      for (const page of [owner, other]) {
        await page.getByRole('alert').filter({ hasText: stepMessages.freeCall.startAgain }).waitFor({ timeout: 15_000 });
        await page.getByRole('button', { name: stepMessages.freeCall.restart }).waitFor();
        expect(await page.getByRole('link', { name: stepMessages.freeCall.call }).count()).toBe(0);
      }
      await owner.reload();
      expect(await owner.getByText('ID: +7 (999) 000-80-05').count()).toBe(0);
    } finally {
      await fault('single-line', false);
    }
  });
});
