import { setup } from 'xstate';
import { messages } from '../../src/services/messages';
import { anonBill, offerBill, openPage } from './support/bills';
import { describeModelFlow, type ModelMeta } from './support/flow';
import { does, sees } from './support/screen';
import { scopeOf } from './support/scopes';

const t = messages.choosePaymentType;
const CARD_FORM = 'http://localhost/sandbox/card/order-1';
const cardForm = { info: { orderId: 'order-1', formUrl: CARD_FORM } };

const test = (check: ModelMeta['test']): ModelMeta => ({ test: check });
const onChoose = test(async () => {
  await sees.heading(t.title);
  await sees.button(t.pay);
});

/**
 * The anonymous payer (SPEC §2 noReg → e-mail → choosePaymentType → card form), the data error of a paid bill,
 * and the agreements and offer modal of a type that asks for them. Server answers are events of their own kind.
 */
const model = setup({}).createMachine({
  id: 'anonymousPayment',
  initial: 'closed',
  states: {
    closed: { on: { OPEN_BILL: 'noReg', OPEN_BILL_PROVIDER_DOWN: 'noReg', OPEN_PAID_BILL: 'dataError', OPEN_OFFER_BILL: 'offerNoReg' } },
    dataError: { meta: test(() => sees.text(messages.app.dataError)) },
    noReg: {
      meta: test(async () => {
        await sees.heading('Оплата по договору № 145');
        await sees.field(messages.email.label);
        await sees.back(false);
      }),
      on: { EMAIL_REFUSED_BY_SERVER: 'emailRefused', EMAIL_ACCEPTED: 'choosing' },
    },
    emailRefused: {
      meta: test(() => sees.alert(messages.validation.emailRejected)),
      on: { EMAIL_ACCEPTED: 'choosing' },
    },
    choosing: {
      meta: onChoose,
      on: {
        PAY_CARD: 'cardForm',
        PAY_WITHOUT_URL: 'noPaymentUrl',
        PAY_SERVER_FAILS: 'noPaymentUrl',
        SELECT_SBP: 'sbpChosen',
        BACK: 'noRegEmailKnown',
      },
    },
    noRegEmailKnown: {
      meta: test(async () => {
        await sees.noField(messages.email.label);
        await sees.button(messages.app.continue);
      }),
      on: { CONTINUE: 'choosing' },
    },
    noPaymentUrl: {
      meta: test(async () => {
        await sees.alert(t.noPaymentUrl);
        await sees.button(t.pay);
      }),
      on: { PAY_CARD: 'cardForm' },
    },
    sbpChosen: {
      meta: test(() => sees.text(/Сервисный сбор: 185,19 руб\./)),
      on: { PAY_SBP: 'sbp' },
    },
    sbp: { meta: test(() => sees.text(messages.sbp.desktop)) },
    cardForm: { meta: test((session) => sees.navigatedTo(session, /\/sandbox\/card\/order-1$/)) },

    offerNoReg: { meta: test(() => sees.button(messages.app.continue)), on: { CONTINUE: 'offerChoosing' } },
    offerChoosing: {
      meta: onChoose,
      on: { PAY_UNTICKED: 'agreementsMissing', OPEN_OFFER: 'offerShown', OPEN_OFFER_EMPTY: 'offerFailed', OPEN_OFFER_FAILS: 'offerFailed', TICK_BOTH: 'ticked' },
    },
    agreementsMissing: {
      meta: test(async () => {
        await sees.alert(t.offerRequired);
        await sees.alert(t.executerRequired);
      }),
      on: { TICK_BOTH: 'ticked' },
    },
    ticked: {
      meta: test(async () => {
        await sees.noAlert(t.offerRequired);
      }),
      on: { PAY_CARD: 'cardForm' },
    },
    offerShown: {
      meta: test(async () => {
        await sees.dialog(messages.offer.title);
        await sees.text('Текст оферты агрегатора');
      }),
      on: { CLOSE_OFFER: 'offerChoosing' },
    },
    offerFailed: {
      meta: test(async () => {
        await sees.dialog(messages.offer.title);
        await sees.alert(t.offerFailed);
      }),
      on: { CLOSE_OFFER: 'offerChoosing' },
    },
  },
});

describeModelFlow({
  flow: 'anonymous-payment',
  model,
  scope: scopeOf('anonymous-payment'),
  simplePaths: false,
  events: {
    OPEN_BILL: async (session) => void openPage(session, { bill: anonBill() }),
    // The provider's checkUser fails: the payer still pays as a guest.
    OPEN_BILL_PROVIDER_DOWN: async (session) => {
      session.server.once('post', '/ajax/realty/checkUser/', { success: false, error: 'Провайдер недоступен' }, 502);
      session.server.once('get', '/ajax/object-info/model-anon', anonBill() as never);
      session.open({ objectOID: 'model-anon' });
    },
    OPEN_PAID_BILL: async (session) => void openPage(session, { bill: anonBill(), billStatus: 404 }),
    OPEN_OFFER_BILL: async (session) => void openPage(session, { bill: offerBill() }),
    EMAIL_REFUSED_BY_SERVER: async (session) => {
      session.server.once('post', '/ajax/check-email/', { success: false, error: 'Неверный email' });
      await does.type(session, messages.email.label, 'refused@example.com');
      await does.click(session, messages.app.continue);
    },
    EMAIL_ACCEPTED: async (session) => {
      session.server.once('post', '/ajax/check-email/', { success: true });
      await does.type(session, messages.email.label, 'payer@example.com');
      await does.click(session, messages.app.continue);
    },
    CONTINUE: (session) => does.click(session, messages.app.continue),
    BACK: (session) => does.click(session, messages.app.back),
    PAY_CARD: async (session) => {
      session.server.once('post', '/api/getPaymentUrl/', cardForm);
      await does.click(session, t.pay);
    },
    PAY_WITHOUT_URL: async (session) => {
      session.server.once('post', '/api/getPaymentUrl/', { info: { orderId: 'order-1' } });
      await does.click(session, t.pay);
    },
    PAY_SERVER_FAILS: async (session) => {
      session.server.once('post', '/api/getPaymentUrl/', { success: false, error: 'Сервис недоступен' }, 500);
      await does.click(session, t.pay);
    },
    PAY_UNTICKED: (session) => does.click(session, t.pay),
    SELECT_SBP: (session) => does.click(session, /СБП/, 'radio'),
    PAY_SBP: async (session) => {
      session.server.once('post', '/api/getPaymentUrl/', { info: { orderId: 'order-1', data: { payload: 'http://localhost/sandbox/sbp/qrc-1', qrcId: 'qrc-1', image: { content: 'iVBORw0KGgo=' } } } });
      // The sbp step asks for the status at once; it is still being paid.
      session.server.once('post', '/api/getResult/', { status: 'created', objectOID: 'model-anon' });
      await does.click(session, t.pay);
    },
    TICK_BOTH: async (session) => {
      await does.click(session, `${messages.agreement.accept} ${messages.agreement.aggregatorLink}`, 'checkbox');
      await does.click(session, `${messages.agreement.accept} ${messages.agreement.executerLink}`, 'checkbox');
    },
    OPEN_OFFER: async (session) => {
      session.server.once('post', '/api/offerText/', { OfferDescription: '<p>Текст оферты агрегатора</p>' });
      await does.click(session, messages.agreement.aggregatorLink);
    },
    OPEN_OFFER_EMPTY: async (session) => {
      session.server.once('post', '/api/offerText/', {});
      await does.click(session, messages.agreement.aggregatorLink);
    },
    OPEN_OFFER_FAILS: async (session) => {
      session.server.once('post', '/api/offerText/', { success: false, error: 'Нет оферты' }, 500);
      await does.click(session, messages.agreement.executerLink);
    },
    CLOSE_OFFER: (session) => does.click(session, messages.offer.close),
  },
});
