import { setup } from 'xstate';
import { messages } from '../../../src/services/messages';
import { sees, type Sight } from '../support/sights';

const m = messages;
const form: Sight[] = [{ heading: m.register.title }, { field: m.register.surname }, { back: true }];
const robot: Sight[] = [{ unchecked: m.robot.standIn }, { disabledButton: m.app.continue }];
const codeScreen: Sight[] = [{ heading: m.code.sent }, { text: /^на номер \+7 \(999\) \d{3}-\d{2}-\d{2}$/ }, { noLink: m.code.freeCallHint }];

/**
 * Registration (SPEC §4): 'Зарегистрироваться' opens the client form with the robot check; a register code goes
 * to the phone; the right code registers the account and the sign-in form says the password went by SMS. A refused
 * send says why; a refused registration shows the robot check when the server asks, and Continue tries again.
 */
export const registrationModel = setup({}).createMachine({
  id: 'registration',
  initial: 'closed',
  states: {
    closed: { on: { OPEN_REGISTER: 'form' } },
    form: { meta: sees(...form, ...robot), on: { FILL_FORM: 'ready', BACK: 'signInForm' } },
    signInForm: { meta: sees({ heading: m.signIn.title }, { back: false }) },
    ready: {
      meta: sees(...form, { checked: m.robot.standIn }, { button: m.app.continue }),
      on: { UNTICK_ROBOT: 'form', CONTINUE_AS_CHECK_EXPIRES: 'form', SEND_CODE: 'code', SEND_TOO_EARLY: 'sendWait', SEND_FAILS: 'sendFailed' },
    },
    sendWait: { meta: sees(...form, { alert: 'Повторная отправка кода возможна через 42 секунды' }, ...robot) },
    sendFailed: { meta: sees(...form, { alert: m.code.sendRefused }, ...robot) },
    code: {
      meta: sees(...codeScreen),
      on: { RIGHT_CODE: 'registered', RIGHT_CODE_REFUSED_ROBOT: 'finishRobot', RIGHT_CODE_SERVER_DOWN: 'finishFailed', BACK: 'formAgain' },
    },
    formAgain: { meta: sees(...form) },
    finishRobot: { meta: sees(...codeScreen, ...robot), on: { RETRY_UNTICKED: 'finishRobotStill', TICK_ROBOT: 'finishRobotTicked' } },
    // The digits typed again with the check not passed: nothing is sent.
    finishRobotStill: { meta: sees(...codeScreen, ...robot) },
    finishRobotTicked: { meta: sees(...codeScreen, { checked: m.robot.standIn }, { button: m.app.continue }), on: { RETRY: 'registered' } },
    finishFailed: { meta: sees(...codeScreen, { button: m.app.continue }), on: { RETRY: 'registered' } },
    registered: { meta: sees({ heading: m.signIn.title }, { status: m.signIn.registrationSuccess }, { back: false }) },
  },
});
