import { setup } from 'xstate';
import { messages } from '../../../src/services/messages';
import { sees, type Sight } from '../support/sights';

const m = messages;
const form: Sight[] = [{ heading: m.forgotPassword.title }, { field: m.signIn.phone }, { back: true }];
const robot: Sight[] = [{ unchecked: m.robot.standIn }, { disabledButton: m.app.continue }];
const codeScreen: Sight[] = [{ heading: m.code.sent }, { text: /^на номер \+7 \(999\) 000-00-02$/ }, { link: m.code.freeCallHint }];

/**
 * Password restore (SPEC §4): 'Не помню пароль' opens the phone form with the robot check; a forgot-password code
 * goes to the phone; the right code resets the password and the sign-in form says 'Новый пароль отправлен вам по
 * СМС'. A refused send says why; a refused reset shows the robot check when asked, and Continue tries again.
 */
export const passwordRestoreModel = setup({}).createMachine({
  id: 'passwordRestore',
  initial: 'closed',
  states: {
    closed: { on: { OPEN_FORGOT_PASSWORD: 'form' } },
    form: { meta: sees(...form, ...robot), on: { FILL_PHONE: 'ready' } },
    ready: {
      meta: sees(...form, { checked: m.robot.standIn }, { button: m.app.continue }),
      on: { UNTICK_ROBOT: 'form', CONTINUE_AS_CHECK_EXPIRES: 'form', SEND_CODE: 'code', SEND_TOO_EARLY: 'sendWait', SEND_FAILS: 'sendFailed' },
    },
    sendWait: { meta: sees(...form, { alert: 'Повторная отправка кода возможна через 42 секунды' }, ...robot) },
    sendFailed: { meta: sees(...form, { alert: m.code.sendRefused }, ...robot) },
    code: {
      meta: sees(...codeScreen),
      on: { RIGHT_CODE: 'restored', RIGHT_CODE_REFUSED_ROBOT: 'finishRobot', RIGHT_CODE_SERVER_DOWN: 'finishFailed', BACK: 'formAgain' },
    },
    formAgain: { meta: sees(...form) },
    finishRobot: { meta: sees(...codeScreen, ...robot), on: { TICK_ROBOT: 'finishRobotTicked' } },
    finishRobotTicked: { meta: sees(...codeScreen, { checked: m.robot.standIn }, { button: m.app.continue }), on: { RETRY: 'restored' } },
    finishFailed: { meta: sees(...codeScreen, { button: m.app.continue }), on: { RETRY: 'restored' } },
    restored: { meta: sees({ heading: m.signIn.title }, { status: m.signIn.newPasswordSent }, { back: false }) },
  },
});
