import { messages } from '../../src/services/messages';
import { passwordRestoreModel as model } from './models/password-restore';
import { codeSent, continueAsCheckExpires, openFromSignIn, refusal, tickRobot, typeCode, typePhone } from './support/account';
import { describeModelFlow, type Session } from './support/flow';
import { does } from './support/screen';
import { scopeOf } from './support/scopes';

const m = messages;
const SEND = '/api/send-sms/';
const RESTORE = '/ajax/sendSMS/';
const send = (session: Session, body: Record<string, unknown>, status = 200) => {
  session.server.once('post', SEND, body as never, status);
  return does.click(session, m.app.continue);
};
const confirmCode = (session: Session, restore: Record<string, unknown>, status = 200) => {
  session.server.once('post', '/api/check-code/', { success: true, data: { verified: true } });
  session.server.once('post', RESTORE, restore as never, status);
  return typeCode(session, '1234');
};
const restored = { success: true, data: 'Если номер зарегистрирован, новый пароль отправлен по СМС', json: { show_captcha: false } };

describeModelFlow({
  flow: 'password-restore',
  model,
  scope: scopeOf('password-restore'),
  events: {
    OPEN_FORGOT_PASSWORD: (session) => openFromSignIn(session, m.signIn.forgot),
    FILL_PHONE: async (session) => {
      await typePhone(session, '79990000002');
      await tickRobot(session);
    },
    UNTICK_ROBOT: tickRobot,
    TICK_ROBOT: tickRobot,
    CONTINUE_AS_CHECK_EXPIRES: (session) => continueAsCheckExpires(session),
    BACK: (session) => does.click(session, m.app.back),
    SEND_CODE: (session) => send(session, codeSent()),
    SEND_TOO_EARLY: (session) => send(session, refusal('Повторная отправка кода возможна через 42 с', true, { secondsLeft: 42 }), 429),
    SEND_FAILS: (session) => send(session, { success: false, error: 'Сбой' }, 500),
    RIGHT_CODE: (session) => confirmCode(session, restored),
    RIGHT_CODE_REFUSED_ROBOT: (session) => confirmCode(session, refusal('Подтвердите, что вы не робот', true), 400),
    RIGHT_CODE_SERVER_DOWN: (session) => confirmCode(session, { success: false, error: 'Сбой' }, 500),
    RETRY: async (session) => {
      session.server.once('post', RESTORE, restored);
      await does.click(session, m.app.continue);
    },
  },
});
