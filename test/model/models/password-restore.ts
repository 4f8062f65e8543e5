import { setup } from 'xstate';
import { stepMessages } from '../../../src/services/stepMessages';
import type { Sight } from '../support/sights';
import { codePurposeStates } from './codePurpose';


/**
 * Password restore: 'Не помню пароль' opens the phone form with the robot check; a forgot-password code
 * goes to the phone; the right code resets the password and the sign-in form says 'Новый пароль отправлен вам по
 * СМС'. A refused send says why; a refused reset shows the robot check when asked, and Continue tries again.
 */
export const passwordRestoreModel = setup({}).createMachine({
  id: 'passwordRestore',
  initial: 'closed',
  states: {
    ...codePurposeStates({
      open: 'OPEN_FORGOT_PASSWORD',
      form: [{ heading: stepMessages.forgotPassword.title }, { field: stepMessages.signIn.phone }, { back: true }] satisfies Sight[],
      // The phone masked as the server masks it after a reload: the screen reads alike either way.
      codeScreen: [{ heading: stepMessages.code.sent }, { text: stepMessages.code.sentTo('+7 (999) ***-**-02') }, { link: stepMessages.code.freeCallHint }],
      resumedCode: [{ heading: stepMessages.code.sent }, { text: stepMessages.code.sentTo('+7 (999) ***-**-02') }, { text: /^Повторная отправка кода возможна через 30 секунд$/ }, { link: stepMessages.code.freeCallHint }, { back: true }],
      done: [{ heading: stepMessages.signIn.title }, { status: stepMessages.signIn.newPasswordSent }, { back: false }],
    }),
  },
});
