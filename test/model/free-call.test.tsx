import { messages } from '../../src/services/messages';
import { stepMessages } from '../../src/services/stepMessages';
import { freeCallModel as model } from './models/free-call';
import { openFromSignIn, sendForgotPasswordCode } from './support/account';
import { elapse } from './support/app';
import { maskPhone } from '../../src/services/rules/phone';
import { openPage, PROVIDER, accountBill } from './support/bills';
import { describeModelFlow, type Session } from './support/flow';
import { does } from './support/screen';
import { scopeOf } from './support/scopes';

const m = messages;
const LOCK = `${PROVIDER}/freeCallLock/`;
const POLL = `${PROVIDER}/freeCall/`;

/** From the forgot-password code screen, the hint opens the free call; the lock answers as given. */
const openFreeCall = (answer: Record<string, unknown>, status = 200) => async (session: Session) => {
  await openFromSignIn(session, stepMessages.signIn.forgot);
  await sendForgotPasswordCode(session);
  session.server.once('post', LOCK, answer as never, status);
  await does.click(session, stepMessages.code.freeCallHint, 'link');
};
const poll = (answer: Record<string, unknown>, status = 200) => async (session: Session) => {
  session.server.once('post', POLL, answer as never, status);
  await elapse(5000);
};

/** The lock's answer when the provider started a check: its number. */
const locked = (callPhone = '78005008275', pretty = '+7 (800) 500-82-75') => ({ success: true, json: { result: true, call_phone: callPhone, call_phone_pretty: pretty } });

describeModelFlow({
  flow: 'free-call',
  model,
  scope: scopeOf('free-call'),
  events: {
    OPEN_FREE_CALL: openFreeCall(locked()),
    OPEN_FREE_CALL_NOT_LOCKED: openFreeCall({ success: true, json: { result: false } }),
    OPEN_FREE_CALL_LOCK_FAILS: openFreeCall({ success: false, error: 'Не удалось начать проверку звонком. Попробуйте позже', json: { result: false } }, 503),
    POLL_NOT_YET: poll({ success: true, json: { result: false, state: 'waiting' } }),
    POLL_FAILS: poll({ success: false, error: 'Сбой' }, 500),
    CALL_CAME: poll({ success: true, json: { result: true, state: 'confirmed' } }),
    CHECK_ENDED: poll({ success: true, json: { result: false, state: 'ended' } }),
    CALL_CLAIMED_TWICE: poll({ success: true, json: { result: false, state: 'conflict' } }),
    START_AGAIN: async (session) => {
      session.server.once('post', LOCK, locked('78005008276', '+7 (800) 500-82-76'));
      await does.click(session, stepMessages.freeCall.restart);
    },
    // Nobody calls: every poll says no until the 60 s limit.
    WAIT_60S: async (session) => {
      session.server.always('post', POLL, { success: true, json: { result: false, state: 'waiting' } });
      await elapse(60_000);
    },
    BACK: (session) => does.click(session, m.app.back),
    RELOAD_ON_FREE_CALL: async (session) => {
      session.server.once('post', LOCK, locked());
      openPage(session, {
        bill: { ...accountBill(), sentCode: { purpose: 'forgot-password', phone: maskPhone('79990000002'), secondsLeft: 0 } },
        resumePath: '/checkByPhone',
        draft: { code: { purpose: 'forgot-password', phone: '79990000002' } },
      });
    },
  },
});
