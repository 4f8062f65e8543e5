import { setup } from 'xstate';
import { stepMessages } from '../../../src/services/stepMessages';
import { sees } from '../support/sights';
import { codePurposeStates } from './codePurpose';


/**
 * Registration: 'Зарегистрироваться' opens the client form with the robot check; a register code goes
 * to the phone; the right code registers the account and the sign-in form says the password went by SMS. A refused
 * send says why; a refused registration shows the robot check when the server asks, and Continue tries again.
 */
const states = codePurposeStates({
  open: 'OPEN_REGISTER',
  form: [{ heading: stepMessages.register.title }, { field: stepMessages.register.surname }, { back: true }],
  // The phone masked as after a reload.
  codeScreen: [{ heading: stepMessages.code.sent }, { text: /^на номер \+7 \(999\) \*{3}-\*{2}-\d{2}$/ }, { noLink: stepMessages.code.freeCallHint }],
  // After a reload the client form is kept in this tab's draft, so the right code registers with it.
  resumedCode: [{ heading: stepMessages.code.sent }, { text: stepMessages.code.sentTo('+7 (999) ***-**-02') }, { noLink: stepMessages.code.freeCallHint }, { back: true }],
  done: [{ heading: stepMessages.signIn.title }, { status: stepMessages.signIn.registrationSuccess }, { back: false }],
});

export const registrationModel = setup({}).createMachine({
  id: 'registration',
  initial: 'closed',
  states: {
    ...states,
    form: { ...states.form, on: { ...states.form.on, BACK: 'signInForm' } },
    signInForm: { meta: sees({ heading: stepMessages.signIn.title }, { back: false }) },
  },
});
