import { setup } from 'xstate';
import { messages } from '../../../src/services/messages';
import { stepMessages } from '../../../src/services/stepMessages';
import { sees, type Sight } from '../support/sights';
import { PAY } from '../../fixtures/payButton';

const m = messages;
const pointsForm: Sight[] = [{ heading: m.points.blockTitle }, { field: stepMessages.usePoints.input }];
/** The points code goes to the bill's own phone, which the page only ever has masked (the server's object-info). */
const codeScreen: Sight[] = [{ heading: stepMessages.code.sent }, { text: /^на номер \+7 \(\d{3}\) \*{3}-\*{2}-\d{2}$/ }, { back: true }];
const countdown = (seconds: RegExp): Sight[] => [...codeScreen, { text: seconds }, { noButton: stepMessages.code.resend }];
/** The code screen after a reload: the phone as the server gave it, masked. */
const resumedCodeScreen: Sight[] = [{ heading: stepMessages.code.sent }, { text: stepMessages.code.sentTo('+7 (999) ***-**-01') }, { back: true }];
/** The code screen's robot check: Continue is not held back by it (pressed first, it says the tick is missing). */
const robot: Sight[] = [{ unchecked: stepMessages.robot.standIn }, { button: m.app.continue }];
const pointsRobot: Sight[] = [{ unchecked: stepMessages.robot.standIn }, { disabledButton: m.points.use }];

/**
 * Points by SMS code: the guest points block opens the points screen; the points go with a use-points
 * code to the customer's phone; the code screen counts 60 s down before 'Отправить код повторно', refuses a
 * wrong code with the tries left (and the robot check once the server asks for it), and a right code returns to
 * guest with the points used. A phone checked once spends points at once; points that cover the bill close it.
 */
export const pointsSmsModel = setup({}).createMachine({
  id: 'pointsSms',
  initial: 'closed',
  states: {
    closed: {
      on: {
        OPEN_POINTS_BILL: 'guest',
        OPEN_POINTS_UNDER_ONE: 'noPointsBlock',
        OPEN_COVERED_BY_POINTS: 'coveredChoosing',
        RELOAD_ON_CODE_SCREEN: 'resumedCode',
        RELOAD_ON_CODE_SCREEN_RESEND_DUE: 'resumedResendReady',
        RELOAD_WITH_DRAFT: 'resumedWithPoints',
        RELOAD_AFTER_CODE_RAN_OUT: 'pointsFormAgain',
      },
    },
    // This tab kept the points asked for (its draft): the right code spends them at once.
    resumedWithPoints: {
      meta: sees(...resumedCodeScreen, { text: /^Повторная отправка кода возможна через 42 секунды$/ }),
      on: { RIGHT_CODE: 'pointsUsed' },
    },
    // Reloaded on the code screen with the code still valid: the countdown goes on from the server's seconds.
    resumedCode: {
      meta: sees(...resumedCodeScreen, { text: /^Повторная отправка кода возможна через 42 секунды$/ }, { noButton: stepMessages.code.resend }, { field: stepMessages.code.digit(1) }),
      on: { RIGHT_CODE: 'pointsFormProven' },
    },
    resumedResendReady: { meta: sees(...resumedCodeScreen, { button: stepMessages.code.resend }) },
    // The points asked for before the reload are not known: the phone is proven, the points are chosen again.
    pointsFormProven: { meta: sees(...pointsForm, { button: m.points.use }), on: { APPLY_POINTS: 'pointsUsed' } },
    guest: {
      meta: sees({ heading: /./ }, { text: /^Можно использовать: 3\s000 баллов$/ }, { button: m.points.use }),
      on: { USE_POINTS: 'pointsForm' },
    },
    noPointsBlock: { meta: sees({ button: m.points.use }), on: { USE_POINTS: 'noPoints' } },
    noPoints: { meta: sees({ heading: m.points.blockTitle }, { text: stepMessages.usePoints.none }, { noField: stepMessages.usePoints.input }) },
    pointsForm: {
      meta: sees(...pointsForm, { button: m.points.use }),
      on: { SEND_CODE: 'codeSent', SEND_REFUSED_ROBOT: 'pointsRobot', SEND_FAILS: 'pointsSendFailed', SEND_SMS_FAILED: 'pointsSmsFailed' },
    },
    // The SMS provider did not take the text: the payer hears it on this screen, and asks again once it is back.
    pointsSmsFailed: { meta: sees(...pointsForm, { alert: stepMessages.code.smsFailed }, { button: m.points.use }), on: { SEND_CODE: 'codeSent' } },
    // The payer learns why no code came, as on the other screens that send one.
    pointsSendFailed: { meta: sees(...pointsForm, { alert: stepMessages.code.sendRefused }, { button: m.points.use }, { noText: stepMessages.robot.standIn }), on: { SEND_CODE: 'codeSent' } },
    // The server asks for the robot check and names no wait: that is the one instruction, no 'try later' beside it.
    pointsRobot: {
      meta: sees(...pointsForm, { alert: stepMessages.robot.notice }, { noText: stepMessages.code.sendRefused }, ...pointsRobot),
      on: { TICK_ROBOT: 'pointsRobotTicked' },
    },
    pointsRobotTicked: {
      meta: sees(...pointsForm, { checked: stepMessages.robot.standIn }, { button: m.points.use }),
      on: { UNTICK_ROBOT: 'pointsRobot', SUBMIT_AS_CHECK_EXPIRES: 'pointsRobot', SEND_CODE: 'codeSent' },
    },
    codeSent: {
      // 60 on the fake clock; a real browser may show a second or two less by the time it is checked.
      meta: sees(...countdown(/^Повторная отправка кода возможна через (60|5\d) секунд$/), { field: stepMessages.code.digit(1) }),
      on: {
        WAIT_1S: 'counting',
        WAIT_60S: 'resendReady',
        WRONG_CODE: 'codeWrong',
        CODE_SERVER_DOWN: 'codeRejected',
        INCOMPLETE_CODE: 'codeIncomplete',
        RIGHT_CODE: 'pointsUsed',
        BACK: 'pointsFormAgain',
      },
    },
    counting: { meta: sees(...countdown(/^Повторная отправка кода возможна через 59 секунд$/)) },
    pointsFormAgain: { meta: sees(...pointsForm, { field: stepMessages.usePoints.input }) },
    codeIncomplete: { meta: sees(...codeScreen, { alert: stepMessages.code.incomplete }) },
    codeRejected: { meta: sees(...codeScreen, { alert: stepMessages.code.rejected }, { noText: stepMessages.robot.standIn }), on: { RIGHT_CODE: 'pointsUsed' } },
    // One miss: the tries left, and no robot check (the server does not ask for one yet); the right code goes on.
    codeWrong: {
      meta: sees(...codeScreen, { alert: stepMessages.code.rejected }, { alert: stepMessages.code.triesLeft(4) }, { noText: stepMessages.robot.standIn }),
      on: { RIGHT_CODE: 'pointsUsed', WRONG_CODE_AGAIN: 'codeRobot' },
    },
    codeRobot: { meta: sees(...codeScreen, { alert: stepMessages.code.rejected }, { alert: stepMessages.code.triesLeft(3) }, ...robot), on: { TYPE_CODE_UNTICKED: 'codeRobotStill', TICK_ROBOT: 'codeRobotTicked' } },
    // Four digits typed with the check not passed: nothing is sent, the tick is asked for, and the code's rejection stays said.
    codeRobotStill: { meta: sees(...codeScreen, { alert: stepMessages.robot.notice }, { alert: stepMessages.code.triesLeft(3) }, ...robot) },
    codeRobotTicked: { meta: sees(...codeScreen, { checked: stepMessages.robot.standIn }), on: { RIGHT_CODE: 'pointsUsed', UNTICK_ROBOT: 'codeRobot' } },
    resendReady: {
      meta: sees(...codeScreen, { button: stepMessages.code.resend }),
      on: { RESEND: 'resent', RESEND_TOO_EARLY: 'resendWait', RESEND_REFUSED: 'resendRefused', RESEND_FAILS: 'resendFailed', RESEND_SMS_FAILED: 'resendSmsFailed' },
    },
    // The new code's text did not go out: said on the code screen, whose resend stays at hand; it works once the provider is back.
    resendSmsFailed: { meta: sees(...codeScreen, { alert: stepMessages.code.smsFailed }, { button: stepMessages.code.resend }), on: { RESEND: 'resentAfterFailure' } },
    resentAfterFailure: { meta: sees(...countdown(/^Повторная отправка кода возможна через 60 секунд$/), { noAlert: stepMessages.code.smsFailed }) },
    resent: { meta: sees(...countdown(/^Повторная отправка кода возможна через 60 секунд$/)) },
    resendWait: { meta: sees(...countdown(/^Повторная отправка кода возможна через 42 секунды$/), ...robot) },
    resendRefused: { meta: sees(...codeScreen, { button: stepMessages.code.resend }, { noText: stepMessages.robot.standIn }) },
    resendFailed: { meta: sees(...codeScreen, { button: stepMessages.code.resend }) },
    pointsUsed: {
      meta: sees({ text: /^Использовано баллов: 1\s000 баллов$/ }, { back: false }),
      on: { USE_MORE_POINTS: 'pointsApplied' },
    },
    // The phone was checked a moment ago: the points apply at once, no second code.
    pointsApplied: { meta: sees({ text: /^Использовано баллов: 2\s000 баллов$/ }, { back: false }) },
    // Issue 17: the button says what happens, and no fee is shown ('Сервисный сбор от 0,00' was).
    coveredChoosing: {
      meta: sees({ heading: stepMessages.choosePaymentType.coveredByPoints }, { button: stepMessages.choosePaymentType.payWithPoints }, { noText: stepMessages.choosePaymentType.feeFrom }),
      on: { PAY_CLOSED: 'closedByPoints', PAY_NOT_CLOSED: 'closeFailed', PAY_CLOSE_FAILS: 'closeFailed', PAY_CLOSED_ELSEWHERE: 'closedElsewhere', NO_POINTS: 'choosingWithoutPoints' },
    },
    // 'Не списывать баллы': the points go, a way to pay is chosen again and Pay asks for the whole price.
    choosingWithoutPoints: {
      meta: sees({ heading: stepMessages.choosePaymentType.title }, { button: PAY }, { noText: m.points.used }, { noButton: stepMessages.choosePaymentType.payWithPoints }),
    },
    closedByPoints: { meta: sees({ navigatedTo: /\/success\?withoutProcessing=1/ }) },
    closeFailed: { meta: sees({ alert: stepMessages.choosePaymentType.closeWithPointsFailed }) },
    // A stale tab: the bill was closed meanwhile (409): it says so, not that closing failed.
    closedElsewhere: {
      meta: sees({ heading: stepMessages.choosePaymentType.alreadyPaid }, { noAlert: stepMessages.choosePaymentType.closeWithPointsFailed }, { noButton: stepMessages.choosePaymentType.payWithPoints }),
    },
  },
});
