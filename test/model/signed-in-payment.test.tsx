import type { JsonBodyType } from 'msw';
import { CHUNK_RETRY_MS } from '../../src/pageCode';
import { messages } from '../../src/services/messages';
import { stepMessages } from '../../src/services/stepMessages';
import { signedInPaymentModel as model } from './models/signed-in-payment';
import { continueAsCheckExpires, held, refusal, tickRobot, typePhone } from './support/account';
import { PROVIDER, openPage, accountBill, accountUser, scriptUser } from './support/bills';
import { chunkNetwork, elapse, eventually, settle } from './support/app';
import { describeModelFlow, type Session } from './support/flow';
import { does } from './support/screen';
import { scopeOf } from './support/scopes';

const LOGIN = `${PROVIDER}/login/`;
const BILL = `/ajax/object-info/${accountBill().objectOID}`;

async function signIn(session: Session, password: string) {
  await typePhone(session, '79990000002');
  await does.type(session, stepMessages.signIn.password, password);
  await does.click(session, messages.app.continue);
}

/** The provider will answer the login with `answer` (and `status`); then the payer signs in with `password`. */
const loginAnswered = (answer: JsonBodyType, status: number, password: string) => async (session: Session) => {
  session.server.once('post', LOGIN, answer, status);
  await signIn(session, password);
};

/** A login the provider accepts, then the app's reload of the user and the bill. */
function acceptLogin(session: Session) {
  session.server.once('post', LOGIN, { success: true });
  scriptUser(session, accountUser());
  session.server.once('get', BILL, accountBill() as never);
}

describeModelFlow({
  flow: 'signed-in-payment',
  model,
  scope: scopeOf('signed-in-payment'),
  checks: {
    'signedInPayment.signInFormReloaded': (session) => {
      expect(session.page.screen.getByLabelText(stepMessages.signIn.phone)).toHaveValue('+7 (999) 000-00-02');
      expect(session.page.screen.getByLabelText(stepMessages.signIn.password)).toHaveValue('');
    },
  },
  events: {
    OPEN_ACCOUNT_BILL: async (session) => void openPage(session, { bill: accountBill() }),
    // The network loses the sign-in form's chunk, the first try and its retry 1.5 s later.
    OPEN_ACCOUNT_BILL_FORM_LOST: async (session) => {
      chunkNetwork.lost = true;
      openPage(session, { bill: accountBill() });
      await settle();
      await elapse(CHUNK_RETRY_MS);
    },
    RETRY_CODE: async (session) => {
      chunkNetwork.lost = false;
      await does.click(session, messages.app.retry);
    },
    RELOAD_ON_SIGN_IN: async (session) => void openPage(session, { bill: accountBill(), resumePath: '/reg', draft: { typed: { signInPhone: '79990000002' } } }),
    OPEN_SIGNED_IN: async (session) => void openPage(session, { bill: accountBill(), user: accountUser() }),
    OPEN_SIGNED_IN_EMAIL_KNOWN: async (session) => void openPage(session, { bill: accountBill(), user: accountUser({ email: 'anna@example.com' }) }),
    WRONG_PASSWORD: loginAnswered(refusal('Неверный телефон или пароль', false), 401, 'not-the-password'),
    LOGIN_SERVER_DOWN: loginAnswered({ success: false, error: 'Провайдер недоступен' }, 502, 'demo-pass'),
    WRONG_PASSWORD_ROBOT_CHECK: loginAnswered(refusal('Неверный телефон или пароль', true), 401, 'not-the-password'),
    RIGHT_PASSWORD: async (session) => {
      acceptLogin(session);
      await signIn(session, 'demo-pass');
    },
    // Signed in, but reloading the user (checkUser) and the bill fail: the app keeps what it had.
    RIGHT_PASSWORD_RELOAD_FAILS: async (session) => {
      session.server.once('post', LOGIN, { success: true });
      session.server.once('post', `${PROVIDER}/checkUser/`, { success: false, error: 'Сбой' }, 500);
      session.server.once('get', BILL, { success: false, error: 'Сбой' }, 500);
      await signIn(session, 'demo-pass');
    },
    RIGHT_PASSWORD_OPEN_REGISTER_WHILE_LOADING: async (session) => {
      session.server.once('post', LOGIN, { success: true });
      const release = held(session, 'post', `${PROVIDER}/checkUser/`, { success: true, json: { token: 'token-1' } });
      session.server.once('post', '/ajax/get-user', { success: true, user: accountUser() } as never);
      session.server.once('get', BILL, accountBill() as never);
      await signIn(session, 'demo-pass');
      // The login was accepted and the reload has begun (its user call waits): now the payer opens register.
      await eventually(() => expect(session.server.seen.some((request) => request.path === `${PROVIDER}/checkUser/` && session.server.seen.filter((r) => r.path === BILL).length === 2)).toBe(true));
      await does.click(session, stepMessages.signIn.register, 'link');
      await release();
      await eventually(() => expect(session.server.seen.some((request) => request.path === '/ajax/get-user')).toBe(true));
      await settle();
    },
    TICK_ROBOT: tickRobot,
    UNTICK_ROBOT: tickRobot,
    CONTINUE_AS_CHECK_EXPIRES: (session) => continueAsCheckExpires(session),
    EMAIL_ACCEPTED: async (session) => {
      session.server.once('post', '/ajax/check-email/', { success: true });
      await does.type(session, messages.email.label, 'payer@example.com');
      await does.click(session, messages.app.continue);
    },
    EMAIL_REFUSED_BY_SERVER: async (session) => {
      session.server.once('post', '/ajax/check-email/', { success: false, error: 'Неверный email' });
      await does.type(session, messages.email.label, 'refused@example.com');
      await does.click(session, messages.app.continue);
    },
    CONTINUE: (session) => does.click(session, messages.app.continue),
    CHANGE_USER: async (session) => {
      session.server.once('post', '/ajax/logout', { success: true });
      session.server.once('post', `${PROVIDER}/logout/`, { success: true });
      await does.click(session, messages.account.changeUser);
    },
    CHANGE_USER_LOGOUT_FAILS: async (session) => {
      session.server.once('post', '/ajax/logout', { success: false, error: 'Сбой' }, 500);
      await does.click(session, messages.account.changeUser);
    },
  },
});
