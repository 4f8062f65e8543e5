import { messages } from '../../src/services/messages';
import { registrationModel as model } from './models/registration';
import { codePurposeEvents, openFromSignIn, tickRobot, typePhone } from './support/account';
import { describeModelFlow } from './support/flow';
import { does } from './support/screen';
import { scopeOf } from './support/scopes';

const m = messages;

describeModelFlow({
  flow: 'registration',
  model,
  scope: scopeOf('registration'),
  events: {
    OPEN_REGISTER: (session) => openFromSignIn(session, m.signIn.register),
    FILL_FORM: async (session) => {
      await does.type(session, m.register.surname, 'Петров');
      await does.type(session, m.register.name, 'Пётр');
      await does.type(session, m.register.patronymic, 'Петрович');
      await typePhone(session, '79991234567');
      await does.click(session, m.register.privacy, 'checkbox');
      await tickRobot(session);
    },
    ...codePurposeEvents({ finish: '/ajax/registration/', finished: { success: true, json: { show_captcha: false } } }),
  },
});
