import { act, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse, type JsonBodyType } from 'msw';
import { refusal, textNotSentBody } from '../../../server/accounts/schemas';
import { messages } from '../../../src/services/messages';
import { stepMessages } from '../../../src/services/stepMessages';
import { eventually, settle } from './app';
import type { Session } from './flow';
import { does } from './screen';

/** The server's refusal body of an account or code call: the server's own builder, so the fakes cannot drift. */
export { refusal };

/** The 503 body of a text the SMS provider did not take (a code, or the password a right code unlocked). */
export const smsNotSent = () => textNotSentBody(false);

/** The send-sms answer of a sent code (server/accounts/codeRoutes.ts). */
export const codeSent = (showCaptcha = false) => ({ success: true, show_captcha: showCaptcha, json: { show_captcha: showCaptcha }, secondsLeft: 60, data: { secondsLeft: 60 } });

/** An answer held back until the test lets it go, so the payer can act while the request is in flight. */
export function held(session: Session, method: 'get' | 'post', path: string, body: JsonBodyType, status = 200) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  session.server.server.use(
    http[method](
      path,
      async () => {
        await gate;
        return HttpResponse.json(body, { status });
      },
      { once: true },
    ),
  );
  return async () => {
    release();
    await settle();
  };
}

export const tickRobot = (session: Session) => does.click(session, stepMessages.robot.standIn, 'checkbox');

/** Types the phone into the masked field (the ten digits after +7). */
export const typePhone = (session: Session, phone: string) => does.type(session, stepMessages.signIn.phone, phone.slice(1));

/**
 * Presses Continue and, before the form has validated and handed the values on, the robot check expires (the
 * stand-in unticked; hCaptcha's token running out does the same): the flow hears the submit with no token.
 */
export async function continueAsCheckExpires(session: Session, button: string = messages.app.continue) {
  let submit: HTMLElement | null = null;
  await eventually(() => {
    submit = screen.getByRole('button', { name: button });
    expect(submit).toBeEnabled();
  });
  const robot = screen.getByRole('checkbox', { name: stepMessages.robot.standIn });
  act(() => {
    fireEvent.click(submit!);
    fireEvent.click(robot);
  });
  await settle();
  void session;
}

/** Types the four digits of a code into the code boxes (the fourth submits it). */
export async function typeCode(session: Session, code: string) {
  const first = await eventuallyGet(() => screen.getByLabelText(stepMessages.code.digit(1)));
  await session.page.user.click(first);
  await session.page.user.keyboard(code);
}

async function eventuallyGet<T>(get: () => T): Promise<T> {
  let found: T | undefined;
  await eventually(() => {
    found = get();
  });
  return found!;
}

/** Opens demo-reg's sign-in form and follows one of its links ('Не помню пароль', 'Зарегистрироваться'). */
export async function openFromSignIn(session: Session, link: string) {
  const { openPage, accountBill } = await import('./bills');
  openPage(session, { bill: accountBill() });
  await does.click(session, link, 'link');
}

/** On the forgot-password form: the phone, the robot check, and a code sent. */
export async function sendForgotPasswordCode(session: Session, phone = '79990000002') {
  await typePhone(session, phone);
  await tickRobot(session);
  session.server.once('post', '/api/send-sms/', codeSent());
  await does.click(session, messages.app.continue);
}

const send = (session: Session, body: JsonBodyType, status = 200) => {
  session.server.once('post', '/api/send-sms/', body, status);
  return does.click(session, messages.app.continue);
};

/**
 * The events of a step that asks for a code (models/codePurpose.ts), performed on the page: `finish` is the call a
 * right code makes (the reset, the registration) and `finished` its answer when it works.
 */
export function codePurposeEvents({ finish, finished }: { finish: string; finished: JsonBodyType }) {
  const confirmCode = (session: Session, answer: JsonBodyType, status = 200) => {
    session.server.once('post', '/api/check-code/', { success: true, data: { verified: true } });
    session.server.once('post', finish, answer, status);
    return typeCode(session, '1234');
  };
  return {
    UNTICK_ROBOT: tickRobot,
    TICK_ROBOT: tickRobot,
    CONTINUE_AS_CHECK_EXPIRES: (session: Session) => continueAsCheckExpires(session),
    BACK: (session: Session) => does.click(session, messages.app.back),
    SEND_CODE: (session: Session) => send(session, codeSent()),
    SEND_TOO_EARLY: (session: Session) => send(session, refusal('Повторная отправка кода возможна через 42 с', true, { secondsLeft: 42 }), 429),
    SEND_FAILS: (session: Session) => send(session, { success: false, error: 'Сбой' }, 500),
    SEND_SMS_FAILED: (session: Session) => send(session, smsNotSent(), 503),
    RIGHT_CODE: (session: Session) => confirmCode(session, finished),
    RIGHT_CODE_REFUSED_ROBOT: (session: Session) => confirmCode(session, refusal('Подтвердите, что вы не робот', true), 400),
    RIGHT_CODE_SERVER_DOWN: (session: Session) => confirmCode(session, { success: false, error: 'Сбой' }, 500),
    RIGHT_CODE_SMS_FAILED: (session: Session) => confirmCode(session, smsNotSent(), 503),
    // The code typed again with the check not passed: no answer scripted, so a request would fail the path.
    RETRY_UNTICKED: (session: Session) => typeCode(session, '1234'),
    RETRY: async (session: Session) => {
      session.server.once('post', finish, finished);
      await does.click(session, messages.app.continue);
    },
  };
}
