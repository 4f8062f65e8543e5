import type { JsonBodyType } from 'msw';
import { maskPhone } from '../../src/services/rules/phone';
import { messages } from '../../src/services/messages';
import { stepMessages } from '../../src/services/stepMessages';
import { pointsSmsModel as model } from './models/points-sms';
import { codeSent, continueAsCheckExpires, refusal, smsNotSent, tickRobot, typeCode } from './support/account';
import { elapse } from './support/app';
import { coverBill, openPage, pointsBill, reloadOnCodeScreen } from './support/bills';
import { describeModelFlow, type Session } from './support/flow';
import { does } from './support/screen';
import { scopeOf } from './support/scopes';

const SEND = '/api/send-sms/';
const CHECK = '/api/check-code/';
const m = messages;
/** The points code this session sent before a reload, and this tab's draft of its step. */
const sent = { purpose: 'use-points', phone: '79990000001', secondsLeft: 42 } as const;
/** The draft holds the phone as the page had it: the bill's, masked. */
const pointsDraft = { purpose: 'use-points', phone: maskPhone(sent.phone), points: 1000 } as const;

const usePoints = async (session: Session, points: string | null) => {
  if (points !== null) await does.type(session, stepMessages.usePoints.input, points);
  await does.click(session, m.points.use);
};
/** The server will answer the points code's send with `answer` (and `status`); then the payer asks for the code as `ask` does. */
const answersSend = (ask: (session: Session) => Promise<void>) => (answer: JsonBodyType, status = 200) => async (session: Session) => {
  session.server.once('post', SEND, answer, status);
  await ask(session);
};
/** Asked for on the points form, with 1 000 points. */
const sendAnswered = answersSend((session) => usePoints(session, '1000'));
/** Asked for again on the code screen. */
const resendAnswered = answersSend((session) => does.click(session, stepMessages.code.resend));
const rightCode = async (session: Session) => {
  session.server.once('post', CHECK, { success: true, data: { verified: true } });
  await typeCode(session, '1234');
};

describeModelFlow({
  flow: 'points-sms',
  model,
  scope: scopeOf('points-sms'),
  events: {
    OPEN_POINTS_BILL: async (session) => void openPage(session, { bill: pointsBill() }),
    // Useful points under one whole point: the block shows, but nothing can be spent.
    OPEN_POINTS_UNDER_ONE: async (session) => void openPage(session, { bill: { ...pointsBill(), usefulPoints: 0.5 } }),
    OPEN_COVERED_BY_POINTS: async (session) => {
      openPage(session, { bill: coverBill() });
      await does.click(session, m.points.use);
      session.server.once('post', SEND, codeSent());
      // The field starts at the most that can be spent: the whole bill.
      await usePoints(session, null);
      await rightCode(session);
      await does.click(session, m.app.continue);
    },
    RELOAD_ON_CODE_SCREEN: reloadOnCodeScreen(pointsBill, sent),
    RELOAD_ON_CODE_SCREEN_RESEND_DUE: reloadOnCodeScreen(pointsBill, { ...sent, secondsLeft: 0 }),
    RELOAD_WITH_DRAFT: reloadOnCodeScreen(pointsBill, sent, pointsDraft),
    // The code ran out (the server has none): the draft still names the flow, so its form, the step before.
    RELOAD_AFTER_CODE_RAN_OUT: async (session) =>
      void openPage(session, { bill: pointsBill(), resumePath: '/checkSendCode', draft: { code: pointsDraft } }),
    // No send answer scripted: a proven phone's points apply with no request.
    APPLY_POINTS: (session) => usePoints(session, '1000'),
    USE_POINTS: (session) => does.click(session, m.points.use),
    SEND_CODE: sendAnswered(codeSent()),
    SEND_REFUSED_ROBOT: sendAnswered(refusal('Подтвердите, что вы не робот', true), 400),
    SEND_FAILS: sendAnswered({ success: false, error: 'Сбой' }, 500),
    SEND_SMS_FAILED: sendAnswered(smsNotSent(), 503),
    TICK_ROBOT: tickRobot,
    UNTICK_ROBOT: tickRobot,
    SUBMIT_AS_CHECK_EXPIRES: (session) => continueAsCheckExpires(session, m.points.use),
    WAIT_1S: () => elapse(1000),
    WAIT_60S: () => elapse(60_000),
    // The server's rule: one miss asks for no robot check; the second in a row does.
    WRONG_CODE: async (session) => {
      session.server.once('post', CHECK, refusal('Ошибка проверки кода', false, { triesLeft: 4 }), 400);
      await typeCode(session, '1111');
    },
    WRONG_CODE_AGAIN: async (session) => {
      session.server.once('post', CHECK, refusal('Ошибка проверки кода', true, { triesLeft: 3 }), 400);
      await typeCode(session, '2222');
    },
    CODE_SERVER_DOWN: async (session) => {
      session.server.once('post', CHECK, { success: false, error: 'Сбой' }, 500);
      await typeCode(session, '1111');
    },
    INCOMPLETE_CODE: async (session) => {
      await typeCode(session, '12');
      await does.click(session, m.app.continue);
    },
    RIGHT_CODE: rightCode,
    // No answer scripted: a request would fail the path.
    TYPE_CODE_UNTICKED: (session) => typeCode(session, '1234'),
    BACK: (session) => does.click(session, m.app.back),
    RESEND: resendAnswered(codeSent()),
    RESEND_TOO_EARLY: resendAnswered(refusal('Повторная отправка кода возможна через 42 с', true, { secondsLeft: 42 }), 429),
    RESEND_REFUSED: resendAnswered(refusal('Баллы недоступны для этого счета', false), 400),
    RESEND_FAILS: resendAnswered({ success: false, error: 'Сбой' }, 500),
    RESEND_SMS_FAILED: resendAnswered(smsNotSent(), 503),
    USE_MORE_POINTS: async (session) => {
      // Points chosen, the block's button says it changes them.
      await does.click(session, m.points.change);
      await usePoints(session, '2000');
    },
    NO_POINTS: (session) => does.click(session, stepMessages.choosePaymentType.noPoints),
    PAY_CLOSED: async (session) => {
      session.server.once('post', '/api/getPaymentUrl/', { isClosedWithoutProcessing: true, info: { orderId: 'order-1' } });
      await does.click(session, stepMessages.choosePaymentType.payWithPoints);
    },
    PAY_NOT_CLOSED: async (session) => {
      session.server.once('post', '/api/getPaymentUrl/', { info: { orderId: 'order-1' } });
      await does.click(session, stepMessages.choosePaymentType.payWithPoints);
    },
    PAY_CLOSE_FAILS: async (session) => {
      session.server.once('post', '/api/getPaymentUrl/', { success: false, error: 'Сбой' }, 500);
      await does.click(session, stepMessages.choosePaymentType.payWithPoints);
    },
    PAY_CLOSED_ELSEWHERE: async (session) => {
      session.server.once('post', '/api/getPaymentUrl/', { success: false, error: 'Счет уже оплачен' }, 409);
      await does.click(session, stepMessages.choosePaymentType.payWithPoints);
    },
  },
});
