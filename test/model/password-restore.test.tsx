import { stepMessages } from '../../src/services/stepMessages';
import { passwordRestoreModel as model } from './models/password-restore';
import { codePurposeEvents, openFromSignIn, tickRobot, typePhone } from './support/account';
import { accountBill, reloadOnCodeScreen } from './support/bills';
import { describeModelFlow } from './support/flow';
import { scopeOf } from './support/scopes';

/** The code this session sent before the reload. */
const sent = { purpose: 'forgot-password', phone: '79990000002' } as const;

describeModelFlow({
  flow: 'password-restore',
  model,
  scope: scopeOf('password-restore'),
  events: {
    OPEN_FORGOT_PASSWORD: (session) => openFromSignIn(session, stepMessages.signIn.forgot),
    RELOAD_ON_CODE_SCREEN: reloadOnCodeScreen(accountBill, sent),
    // This tab's draft of the code step and the server's valid code agree: the code screen, and the right code finishes.
    RELOAD_WITH_DRAFT: reloadOnCodeScreen(accountBill, sent, { purpose: 'forgot-password', phone: sent.phone }),
    FILL_FORM: async (session) => {
      await typePhone(session, '79990000002');
      await tickRobot(session);
    },
    ...codePurposeEvents({
      finish: '/ajax/sendSMS/',
      finished: { success: true, data: 'Если номер зарегистрирован, новый пароль отправлен по СМС', json: { show_captcha: false } },
    }),
  },
});
