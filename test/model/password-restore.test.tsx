import { stepMessages } from '../../src/services/stepMessages';
import { passwordRestoreModel as model } from './models/password-restore';
import { codePurposeEvents, openFromSignIn, tickRobot, typePhone } from './support/account';
import { openPage, regBill } from './support/bills';
import { describeModelFlow } from './support/flow';
import { scopeOf } from './support/scopes';

describeModelFlow({
  flow: 'password-restore',
  model,
  scope: scopeOf('password-restore'),
  events: {
    OPEN_FORGOT_PASSWORD: (session) => openFromSignIn(session, stepMessages.signIn.forgot),
    RELOAD_ON_CODE_SCREEN: async (session) =>
      void openPage(session, { bill: { ...regBill(), sentCode: { purpose: 'forgot-password', phone: '+7 (999) ***-**-02', secondsLeft: 30 } }, resumePath: '/checkSendCode' }),
    // This tab's draft of the code step and the server's valid code agree: the code screen, and the right code finishes.
    RELOAD_WITH_DRAFT: async (session) =>
      void openPage(session, {
        bill: { ...regBill(), sentCode: { purpose: 'forgot-password', phone: '+7 (999) ***-**-02', secondsLeft: 30 } },
        resumePath: '/checkSendCode',
        codeDraft: { purpose: 'forgot-password', phone: '79990000002' },
      }),
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
