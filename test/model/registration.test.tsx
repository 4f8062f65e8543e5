import { messages } from '../../src/services/messages';
import { registrationModel as model } from './models/registration';
import { codeSent, continueAsCheckExpires, openFromSignIn, refusal, tickRobot, typeCode, typePhone } from './support/account';
import { describeModelFlow, type Session } from './support/flow';
import { does } from './support/screen';
import { scopeOf } from './support/scopes';

const m = messages;
const SEND = '/api/send-sms/';
const REGISTER = '/ajax/registration/';
const send = (session: Session, body: Record<string, unknown>, status = 200) => {
  session.server.once('post', SEND, body as never, status);
  return does.click(session, m.app.continue);
};
const confirmCode = (session: Session, registration: Record<string, unknown>, status = 200) => {
  session.server.once('post', '/api/check-code/', { success: true, data: { verified: true } });
  session.server.once('post', REGISTER, registration as never, status);
  return typeCode(session, '1234');
};
const registered = { success: true, json: { show_captcha: false } };

describeModelFlow({
  flow: 'registration',
  model,
  scope: scopeOf('registration'),
  events: {
    OPEN_REGISTER: (session) => openFromSignIn(session, m.signIn.register),
    FILL_FORM: async (session) => {
      await does.type(session, m.register.surname, 'Петров');
      await does.type(session, m.register.name, 'Пётр');
      await does.type(session, m.register.patronymic, 'Петрович');
      await typePhone(session, '79991234567');
      await does.click(session, m.register.privacy, 'checkbox');
      await tickRobot(session);
    },
    UNTICK_ROBOT: tickRobot,
    TICK_ROBOT: tickRobot,
    CONTINUE_AS_CHECK_EXPIRES: (session) => continueAsCheckExpires(session),
    BACK: (session) => does.click(session, m.app.back),
    SEND_CODE: (session) => send(session, codeSent()),
    SEND_TOO_EARLY: (session) => send(session, refusal('Повторная отправка кода возможна через 42 с', true, { secondsLeft: 42 }), 429),
    SEND_FAILS: (session) => send(session, { success: false, error: 'Сбой' }, 500),
    RIGHT_CODE: (session) => confirmCode(session, registered),
    RIGHT_CODE_REFUSED_ROBOT: (session) => confirmCode(session, refusal('Подтвердите, что вы не робот', true), 400),
    RIGHT_CODE_SERVER_DOWN: (session) => confirmCode(session, { success: false, error: 'Сбой' }, 500),
    // The code typed again with the check not passed: no answer scripted, so a request would fail the path.
    RETRY_UNTICKED: (session) => typeCode(session, '1234'),
    RETRY: async (session) => {
      session.server.once('post', REGISTER, registered);
      await does.click(session, m.app.continue);
    },
  },
});
