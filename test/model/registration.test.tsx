import { stepMessages } from '../../src/services/stepMessages';
import { registrationModel as model } from './models/registration';
import { codePurposeEvents, openFromSignIn, tickRobot, typePhone } from './support/account';
import { accountBill, reloadOnCodeScreen } from './support/bills';
import { describeModelFlow } from './support/flow';
import { does } from './support/screen';
import { scopeOf } from './support/scopes';

/** The code this session sent before the reload. */
const sent = { purpose: 'register', phone: '79990000002' } as const;

describeModelFlow({
  flow: 'registration',
  model,
  scope: scopeOf('registration'),
  events: {
    OPEN_REGISTER: (session) => openFromSignIn(session, stepMessages.signIn.register),
    RELOAD_ON_CODE_SCREEN: reloadOnCodeScreen(accountBill, sent),
    // This tab's draft of the code step and the server's valid code agree: the code screen, and the right code finishes.
    RELOAD_WITH_DRAFT: reloadOnCodeScreen(accountBill, sent, {
      purpose: 'register',
      phone: sent.phone,
      form: { surname: 'Петров', name: 'Пётр', patronymic: 'Петрович', phone: sent.phone, privacy: true },
    }),
    FILL_FORM: async (session) => {
      await does.type(session, stepMessages.register.surname, 'Петров');
      await does.type(session, stepMessages.register.name, 'Пётр');
      await does.type(session, stepMessages.register.patronymic, 'Петрович');
      await typePhone(session, '79991234567');
      await does.click(session, stepMessages.register.privacy, 'checkbox');
      await tickRobot(session);
    },
    ...codePurposeEvents({ finish: '/ajax/registration/', finished: { success: true, json: { show_captcha: false } } }),
  },
});
