import type { Page } from 'playwright-core';
import { messages } from '../../src/services/messages';
import { stepMessages } from '../../src/services/stepMessages';
import { anonymousPaymentModel } from '../model/models/anonymous-payment';
import { bankWidgetModel } from '../model/models/bank-widget';
import { freeCallModel } from '../model/models/free-call';
import { passwordRestoreModel } from '../model/models/password-restore';
import { paymentStatusModel } from '../model/models/payment-status';
import { pointsSmsModel } from '../model/models/points-sms';
import { registrationModel } from '../model/models/registration';
import { signedInPaymentModel } from '../model/models/signed-in-payment';
import { pathNamed } from '../model/support/paths';
import { callFreeLine, codeScreenPhone, DESKTOP, freshBill, MOBILE, newContext, smsCode, typeCode, useLiveServer } from './harness';
import { walkInBrowser, type BrowserEvent } from './modelAdapter';
import { PAY } from '../fixtures/payButton';

/**
 * One generated path of each model flow, walked in Chromium against the real server: the same model and the same
 * sights as the jsdom run (test/model), with the events performed for real (SMS codes from the sandbox outbox,
 * the 'Я не робот' stand-in, the sandbox free-call line), so the model and the real system share one truth.
 */
jest.setTimeout(90_000);

const m = messages;
const live = useLiveServer();

async function newPage(device: typeof DESKTOP | typeof MOBILE = DESKTOP): Promise<Page> {
  const page = await (await newContext(live.browser, device)).newPage();
  return page;
}

const open = (from: string) => async (page: Page) => void (await page.goto(`${live.server.url}/pay/${await freshBill(live.server, from)}`));
const click = (name: string | RegExp) => (page: Page) => page.getByRole('button', { name, exact: typeof name === 'string' }).click();
const clickLink = (name: string) => (page: Page) => page.getByRole('link', { name, exact: true }).click();
const tickRobot: BrowserEvent = (page) => page.getByLabel(stepMessages.robot.standIn).click();
const fillPhone = (page: Page, phone: string) => page.getByLabel(stepMessages.signIn.phone, { exact: true }).fill(phone.slice(1));
const giveEmail: BrowserEvent = async (page) => {
  await page.getByLabel(m.email.label).fill('payer@example.com');
  await page.getByRole('button', { name: m.app.continue }).click();
};

/** The right code, from the SMS to the phone the screen names (the one typed, or the bill's). */
const rightCode =
  (typed?: string): BrowserEvent =>
  async (page) =>
    typeCode(page, await smsCode(live.server, await codeScreenPhone(live.server, page, typed)));

/** Opens a fresh `from` bill and follows the sign-in form's link `name` (to registration or the password restore). */
const openAndFollow = (from: string, name: string) => async (page: Page) => {
  await open(from)(page);
  await clickLink(name)(page);
};

/** An anonymous payer on a fresh demo-anon bill: the e-mail, a way to pay, Pay. */
const payAnonymously = (way: RegExp) => async (page: Page) => {
  await open('demo-anon')(page);
  await giveEmail(page);
  await page.getByRole('radio', { name: way }).check();
  await click(PAY)(page);
};

/** Walks the flow's generated path `name` in a page of its own, performing each model event as `events` says. */
async function walk(flow: Parameters<typeof pathNamed>[0], name: string, events: Record<string, BrowserEvent>, device: typeof DESKTOP | typeof MOBILE = DESKTOP) {
  const page = await newPage(device);
  await walkInBrowser(pathNamed(flow, name), page, events);
  await page.context().close();
}

test('anonymous-payment: OPEN_BILL → EMAIL_ACCEPTED → PAY_CARD', async () => {
  await walk({ model: anonymousPaymentModel }, 'OPEN_BILL → EMAIL_ACCEPTED → PAY_CARD', {
    OPEN_BILL: open('demo-anon'),
    EMAIL_ACCEPTED: giveEmail,
    PAY_CARD: click(PAY),
  });
});

test('signed-in-payment: OPEN_ACCOUNT_BILL → WRONG_PASSWORD_ROBOT_CHECK → TICK_ROBOT → RIGHT_PASSWORD', async () => {
  const signIn = (password: string) => async (target: Page) => {
    await fillPhone(target, '79990000002');
    await target.getByLabel(stepMessages.signIn.password).fill(password);
    await target.getByRole('button', { name: m.app.continue }).click();
  };
  // The real server asks for the robot check after any refused login, so this is the refusal it gives.
  await walk({ model: signedInPaymentModel }, 'OPEN_ACCOUNT_BILL → WRONG_PASSWORD_ROBOT_CHECK → TICK_ROBOT → RIGHT_PASSWORD', {
    OPEN_ACCOUNT_BILL: open('demo-reg'),
    WRONG_PASSWORD_ROBOT_CHECK: signIn('not-the-password'),
    TICK_ROBOT: tickRobot,
    RIGHT_PASSWORD: signIn('demo-pass'),
  });
});

test('points-sms: OPEN_POINTS_BILL → USE_POINTS → SEND_CODE → WRONG_CODE → RIGHT_CODE', async () => {
  await walk({ model: pointsSmsModel }, 'OPEN_POINTS_BILL → USE_POINTS → SEND_CODE → WRONG_CODE → RIGHT_CODE', {
    OPEN_POINTS_BILL: open('demo-points'),
    USE_POINTS: click(m.points.use),
    SEND_CODE: async (target) => {
      await target.getByLabel(stepMessages.usePoints.input).fill('1000');
      await target.getByRole('button', { name: m.points.use }).click();
    },
    // Any code but the one sent: the server refuses it with the tries left, and no robot check for one miss.
    WRONG_CODE: async (target) => {
      const code = await smsCode(live.server, await codeScreenPhone(live.server, target));
      await typeCode(target, String((Number(code) + 1) % 10_000).padStart(4, '0'));
    },
    RIGHT_CODE: rightCode(),
  });
});

test('registration: OPEN_REGISTER → FILL_FORM → SEND_CODE → RIGHT_CODE', async () => {
  const phone = `7999${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;
  await walk({ model: registrationModel }, 'OPEN_REGISTER → FILL_FORM → SEND_CODE → RIGHT_CODE', {
    OPEN_REGISTER: openAndFollow('demo-reg', stepMessages.signIn.register),
    FILL_FORM: async (target) => {
      await target.getByLabel(stepMessages.register.surname).fill('Петров');
      await target.getByLabel(stepMessages.register.name, { exact: true }).fill('Пётр');
      await target.getByLabel(stepMessages.register.patronymic).fill('Петрович');
      await fillPhone(target, phone);
      await target.getByLabel(stepMessages.register.privacy).check();
      await tickRobot(target);
    },
    SEND_CODE: click(m.app.continue),
    RIGHT_CODE: rightCode(phone),
  });
});

test('password-restore: OPEN_FORGOT_PASSWORD → FILL_FORM → SEND_CODE → RIGHT_CODE', async () => {
  await walk({ model: passwordRestoreModel }, 'OPEN_FORGOT_PASSWORD → FILL_FORM → SEND_CODE → RIGHT_CODE', {
    OPEN_FORGOT_PASSWORD: openAndFollow('demo-reg', stepMessages.signIn.forgot),
    FILL_FORM: async (target) => {
      await fillPhone(target, '79990000002');
      await tickRobot(target);
    },
    SEND_CODE: click(m.app.continue),
    RIGHT_CODE: rightCode('79990000002'),
  });
});

test('free-call: OPEN_FREE_CALL → CALL_CAME', async () => {
  // A phone of its own (a phone gets one SMS a minute, and the restore path above just sent one) that masks as the
  // model's sights name it: +7 (999) ***-**-02.
  const phone = '79990000902';
  await walk({ model: freeCallModel }, 'OPEN_FREE_CALL → CALL_CAME', {
    OPEN_FREE_CALL: async (target) => {
      await openAndFollow('demo-reg', stepMessages.signIn.forgot)(target);
      await fillPhone(target, phone);
      await tickRobot(target);
      await click(m.app.continue)(target);
      await clickLink(stepMessages.code.freeCallHint)(target);
    },
    // The sandbox line takes the call; the page's next poll (every 5 s) hears of it and reloads.
    CALL_CAME: async () => {
      const call = await callFreeLine(live.server, phone);
      expect(call.status).toBe(200);
      expect(await call.json()).toEqual({ success: true, answered: 1 });
    },
  });
});

test('payment-status: PAY_BY_SBP → ANOTHER_METHOD', async () => {
  await walk({ model: paymentStatusModel }, 'PAY_BY_SBP → ANOTHER_METHOD', {
    PAY_BY_SBP: payAnonymously(/СБП/),
    ANOTHER_METHOD: click(stepMessages.sbp.anotherMethod),
  });
});

test('bank-widget: PAY_ON_PHONE', async () => {
  await walk({ model: bankWidgetModel, simplePaths: true }, 'PAY_ON_PHONE', {
    PAY_ON_PHONE: payAnonymously(/SberPay/),
  }, MOBILE);
});
