import { setup } from 'xstate';
import { messages } from '../../../src/services/messages';
import { stepMessages } from '../../../src/services/stepMessages';
import { sees, type Sight } from '../support/sights';
import { codePurposeStates } from './codePurpose';

const m = messages;

/**
 * Password restore (SPEC §4): 'Не помню пароль' opens the phone form with the robot check; a forgot-password code
 * goes to the phone; the right code resets the password and the sign-in form says 'Новый пароль отправлен вам по
 * СМС'. A refused send says why; a refused reset shows the robot check when asked, and Continue tries again.
 */
export const passwordRestoreModel = setup({}).createMachine({
  id: 'passwordRestore',
  initial: 'closed',
  states: {
    // Reloaded on the code screen with the code still valid (issue 17): with this tab's draft, the code screen (the phone
    // masked as the server gives it); without, the phone is not known to the page, so the form again.
    closed: { on: { OPEN_FORGOT_PASSWORD: 'form', RELOAD_ON_CODE_SCREEN: 'formAgain', RELOAD_WITH_DRAFT: 'resumedCode' } },
    resumedCode: {
      meta: sees({ heading: m.code.sent }, { text: m.code.sentTo('+7 (999) ***-**-02') }, { text: /^Повторная отправка кода возможна через 30 секунд$/ }, { link: m.code.freeCallHint }, { back: true }),
      on: { RIGHT_CODE: 'done' },
    },
    ...codePurposeStates({
      form: [{ heading: stepMessages.forgotPassword.title }, { field: stepMessages.signIn.phone }, { back: true }] satisfies Sight[],
      codeScreen: [{ heading: m.code.sent }, { text: /^на номер \+7 \(999\) 000-00-02$/ }, { link: m.code.freeCallHint }],
      done: [{ heading: stepMessages.signIn.title }, { status: stepMessages.signIn.newPasswordSent }, { back: false }],
    }),
  },
});
