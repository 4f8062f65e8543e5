import { messages } from '../../../src/services/messages';
import { stepMessages } from '../../../src/services/stepMessages';
import { sees, type Sight } from '../support/sights';

const m = messages;
/** The form's robot check: Continue waits for it. */
const robot: Sight[] = [{ unchecked: stepMessages.robot.standIn }, { disabledButton: m.app.continue }];
/** The code screen's: Continue is not held back; pressed first, it says the tick is what is missing. */
const codeRobot: Sight[] = [{ unchecked: stepMessages.robot.standIn }, { button: m.app.continue }];

/**
 * The states a step that asks for a code shares with every other such step (the send-code flow): its
 * form with the robot check always shown, the send and its refusals, the code screen, and a right code's finish
 * (the reset, the registration), which may be refused with the robot check and is tried again by Continue.
 * `open` is the event that opens the step; `form`, `codeScreen` and `resumedCode` (the code screen after a reload) are
 * what that step's screens show, `done` where a finished code lands.
 */
export function codePurposeStates({ open, form, codeScreen, resumedCode, done }: { open: string; form: Sight[]; codeScreen: Sight[]; resumedCode: Sight[]; done: Sight[] }) {
  return {
    // Reloaded on the code screen with the code still valid: with this tab's draft of the step, the code
    // screen (the phone masked as the server gives it); without, the phone is not known to the page, so the form again.
    closed: { on: { [open]: 'form', RELOAD_ON_CODE_SCREEN: 'formAgain', RELOAD_WITH_DRAFT: 'resumedCode' } },
    resumedCode: { meta: sees(...resumedCode), on: { RIGHT_CODE: 'done' } },
    form: { meta: sees(...form, ...robot), on: { FILL_FORM: 'ready' } },
    ready: {
      meta: sees(...form, { checked: stepMessages.robot.standIn }, { button: m.app.continue }),
      on: { UNTICK_ROBOT: 'form', CONTINUE_AS_CHECK_EXPIRES: 'form', SEND_CODE: 'code', SEND_TOO_EARLY: 'sendWait', SEND_FAILS: 'sendFailed', SEND_SMS_FAILED: 'sendSmsFailed' },
    },
    // The SMS provider did not take the code's text: the payer hears it on the form.
    sendSmsFailed: { meta: sees(...form, { alert: stepMessages.code.smsFailed }) },
    sendWait: { meta: sees(...form, { alert: 'Повторная отправка кода возможна через 42 секунды' }, ...robot) },
    sendFailed: { meta: sees(...form, { alert: stepMessages.code.sendRefused }, ...robot) },
    code: {
      meta: sees(...codeScreen),
      on: {
        RIGHT_CODE: 'done',
        RIGHT_CODE_REFUSED_ROBOT: 'finishRobot',
        RIGHT_CODE_SERVER_DOWN: 'finishFailed',
        RIGHT_CODE_SMS_FAILED: 'finishSmsFailed',
        BACK: 'formAgain',
      },
    },
    formAgain: { meta: sees(...form) },
    finishRobot: { meta: sees(...codeScreen, ...codeRobot), on: { RETRY_UNTICKED: 'finishRobotStill', TICK_ROBOT: 'finishRobotTicked' } },
    // The digits typed again with the check not passed: nothing is sent, and the tick is the one thing said to do.
    finishRobotStill: { meta: sees(...codeScreen, { alert: stepMessages.robot.notice }, ...codeRobot) },
    finishRobotTicked: { meta: sees(...codeScreen, { checked: stepMessages.robot.standIn }, { button: m.app.continue }), on: { RETRY: 'done' } },
    finishFailed: { meta: sees(...codeScreen, { button: m.app.continue }), on: { RETRY: 'done' } },
    // The code was right but the password's text did not go out: said so; Continue sends it once the provider is back.
    finishSmsFailed: { meta: sees(...codeScreen, { alert: stepMessages.code.smsFailed }, { button: m.app.continue }), on: { RETRY: 'done' } },
    done: { meta: sees(...done) },
  } as const;
}
