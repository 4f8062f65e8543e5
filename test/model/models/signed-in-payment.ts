import { setup } from 'xstate';
import { messages } from '../../../src/services/messages';
import { stepMessages } from '../../../src/services/stepMessages';
import { sees, type Sight } from '../support/sights';
import { PAY } from '../../fixtures/payButton';

const signInForm: Sight[] = [{ heading: stepMessages.signIn.title }, { field: stepMessages.signIn.password }, { noButton: messages.account.changeUser }];
const robotCheck: Sight[] = [{ alert: stepMessages.signIn.failed }, { unchecked: stepMessages.robot.standIn }, { disabledButton: messages.app.continue }];
const signedIn: Sight[] = [{ text: /^ID: \+7 \(999\) 000-00-02$/ }, { button: messages.account.changeUser }, { noField: stepMessages.signIn.password }];

/**
 * The registered payer (the account step): the sign-in form; a refused or failed login says 'Не удалось авторизоваться'
 * and, when the server asks, the robot check must pass first; signed in, the card shows 'ID:' and the phone, then
 * the e-mail and choosePaymentType; 'Сменить пользователя' logs out. The app reloads user and bill after a sign-in.
 */
export const signedInPaymentModel = setup({}).createMachine({
  id: 'signedInPayment',
  initial: 'closed',
  states: {
    closed: {
      on: {
        OPEN_ACCOUNT_BILL: 'signInForm',
        OPEN_ACCOUNT_BILL_FORM_LOST: 'signInFormLost',
        OPEN_SIGNED_IN: 'signedIn',
        OPEN_SIGNED_IN_EMAIL_KNOWN: 'signedInEmailKnown',
        RELOAD_ON_SIGN_IN: 'signInFormReloaded',
      },
    },
    // The sign-in form's code (a chunk of its own) could not be had, even after its retry: its place says so, with a
    // retry that brings the form.
    signInFormLost: {
      meta: sees({ alert: messages.app.codeFailed }, { button: messages.app.retry }, { noField: stepMessages.signIn.password }),
      on: { RETRY_CODE: 'signInForm' },
    },
    // A reload on the sign-in form: the phone typed is in the field again (the jsdom check reads it), the password not.
    signInFormReloaded: { meta: sees(...signInForm, { button: messages.app.continue }), on: { RIGHT_PASSWORD: 'signedIn' } },
    signInForm: {
      meta: sees(...signInForm, { noAlert: stepMessages.signIn.failed }, { button: messages.app.continue }),
      on: {
        WRONG_PASSWORD: 'failed',
        LOGIN_SERVER_DOWN: 'failed',
        WRONG_PASSWORD_ROBOT_CHECK: 'robotCheck',
        RIGHT_PASSWORD: 'signedIn',
        RIGHT_PASSWORD_RELOAD_FAILS: 'signInFormAgain',
        RIGHT_PASSWORD_OPEN_REGISTER_WHILE_LOADING: 'registerSignedIn',
      },
    },
    failed: { meta: sees(...signInForm, { alert: stepMessages.signIn.failed }, { noText: stepMessages.robot.standIn }), on: { RIGHT_PASSWORD: 'signedIn' } },
    robotCheck: { meta: sees(...signInForm, ...robotCheck), on: { TICK_ROBOT: 'robotTicked' } },
    robotTicked: {
      meta: sees(...signInForm, { checked: stepMessages.robot.standIn }, { button: messages.app.continue }),
      on: { UNTICK_ROBOT: 'robotCheck', CONTINUE_AS_CHECK_EXPIRES: 'robotCheck', RIGHT_PASSWORD: 'signedIn' },
    },
    // Signed in, but the user could not be reloaded: the form again, nobody's card.
    signInFormAgain: { meta: sees(...signInForm) },
    // The register step was opened while the app reloaded the user; the reload lands on it all the same.
    registerSignedIn: { meta: sees({ heading: stepMessages.register.title }) },
    signedIn: {
      meta: sees(...signedIn, { field: messages.email.label }),
      on: { EMAIL_ACCEPTED: 'choosing', EMAIL_REFUSED_BY_SERVER: 'emailRefused', CHANGE_USER: 'loggedOut', CHANGE_USER_LOGOUT_FAILS: 'loggedOut' },
    },
    signedInEmailKnown: { meta: sees(...signedIn, { noField: messages.email.label }), on: { CONTINUE: 'choosing' } },
    emailRefused: { meta: sees(...signedIn, { alert: messages.validation.emailRejected }), on: { EMAIL_ACCEPTED: 'choosing' } },
    loggedOut: { meta: sees(...signInForm) },
    choosing: { meta: sees({ heading: stepMessages.choosePaymentType.title }, { button: PAY }) },
  },
});
