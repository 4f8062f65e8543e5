import { stepMessages } from '../../src/services/stepMessages';
import { registrationModel as model } from './models/registration';
import { codePurposeEvents, openFromSignIn, tickRobot, typePhone } from './support/account';
import { openPage, regBill } from './support/bills';
import { describeModelFlow } from './support/flow';
import { does } from './support/screen';
import { scopeOf } from './support/scopes';

describeModelFlow({
  flow: 'registration',
  model,
  scope: scopeOf('registration'),
  events: {
    OPEN_REGISTER: (session) => openFromSignIn(session, stepMessages.signIn.register),
    RELOAD_ON_CODE_SCREEN: async (session) =>
      void openPage(session, { bill: { ...regBill(), sentCode: { purpose: 'register', phone: '+7 (999) ***-**-02', secondsLeft: 30 } }, resumePath: '/checkSendCode' }),
    // This tab's draft of the code step and the server's valid code agree: the code screen, and the right code finishes.
    RELOAD_WITH_DRAFT: async (session) =>
      void openPage(session, {
        bill: { ...regBill(), sentCode: { purpose: 'register', phone: '+7 (999) ***-**-02', secondsLeft: 30 } },
        resumePath: '/checkSendCode',
        codeDraft: { purpose: 'register', phone: '79990000002', form: { surname: 'Петров', name: 'Пётр', patronymic: 'Петрович', phone: '79990000002', privacy: true } },
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
