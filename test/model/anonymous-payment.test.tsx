import { CHUNK_RETRY_MS } from '../../src/pageCode';
import { messages } from '../../src/services/messages';
import { stepMessages } from '../../src/services/stepMessages';
import { chunkNetwork, elapse, settle } from './support/app';
import { anonBill, offerBill, openPage, partsBill } from './support/bills';
import { anonymousPaymentModel as model } from './models/anonymous-payment';
import { describeModelFlow, type Session } from './support/flow';
import { does } from './support/screen';
import { scopeOf } from './support/scopes';
import { PAY } from '../fixtures/payButton';

const CARD_FORM = 'http://localhost/sandbox/acquirer/order-1';
const cardForm = { info: { orderId: 'order-1', formUrl: CARD_FORM } };

/**
 * A reload on the fast-payment step while its QR is still open: the reloaded step polls at once, and the attempt is
 * still being paid. `drafted`: this tab kept its draft (the e-mail, the way to pay, the QR's transaction), as after
 * a Back that reloads the page; else only the server's open attempt brings the step back.
 */
const reloadOnOpenSbp = (drafted: boolean) => async (session: Session) => {
  const bill = anonBill();
  const sbp = bill.cardTypes.find((type) => type.Code === 'SBP')!;
  session.server.once('post', '/api/getResult/', { status: 'created', objectOID: 'model-anon' });
  openPage(session, {
    bill: { ...bill, openAttempt: { orderId: 'order-1', cardTypeOID: sbp.OID, code: 'SBP', status: 'created', pointsUsed: 0, sbp: { payload: 'http://localhost/sandbox/sbp/qrc-1', qrcId: 'qrc-1', image: 'iVBORw0KGgo=' } } },
    resumePath: '/sbp',
    ...(drafted ? { draft: { email: 'payer@example.com', selectedTypeOid: sbp.OID, transactionID: 'qrc-1' } } : {}),
  });
};

/** A paid bill's link: object-info's 409 says `paid`, with the receipt of the payment that paid it. */
const paidBillWithReceipt = {
  bill: anonBill(),
  billStatus: 409,
  refusal: {
    success: false,
    error: 'Счет уже оплачен',
    paid: true,
    receipt: { orderId: 'order-1', status: 'success', amount: 12345.67, pointsUsed: 0, purpose: 'Оплата по договору № 145', at: '2026-01-15T09:00:00.000Z', method: { code: 'ALL', name: 'Банковская карта' }, email: 'pa***@example.com', billPaid: true, items: [], fee: 0, fiscal: false },
  },
};

describeModelFlow({
  flow: 'anonymous-payment',
  model,
  scope: scopeOf('anonymous-payment'),
  simplePaths: false,
  checks: {
    'anonymousPayment.reloadedTyped': (session) => expect(session.page.screen.getByLabelText(messages.email.label)).toHaveValue('payer@exa'),
    'anonymousPayment.reloadedChoosing': (session) => {
      expect(session.page.screen.getByRole('radio', { name: /SberPay/ })).toBeChecked();
      expect(session.page.screen.getByLabelText(messages.email.label)).toHaveValue('payer@example.com');
    },
    'anonymousPayment.openAbandoned': (session) => {
      expect(session.page.screen.getByRole('radio', { name: /СБП/ })).toBeChecked();
      expect(session.page.screen.getByLabelText(messages.email.label)).toHaveValue('payer@example.com');
    },
    // Back to the card's attempt: the same way to pay, with the e-mail kept.
    'anonymousPayment.cardForm': (session) => {
      // Every way to the card form is a Pay (or 'Продолжить оплату'): the page asked the server for the form's address.
      const pay = session.server.seen.filter((request) => request.path === '/api/getPaymentUrl/').at(-1);
      expect(pay?.body).toMatchObject({ email: expect.stringMatching(/@example\.com$/) });
    },
    // The part typed is the part asked for, once: the part over what remains was never sent.
    'anonymousPayment.partCardForm': (session) => {
      const asked = session.server.seen.filter((request) => request.path === '/api/getPaymentUrl/');
      expect(asked.map((request) => (request.body as { partSum?: number }).partSum)).toEqual([700_000]);
    },
    // The bill was asked for with the declined order, and the way to pay it had is the one chosen.
    'anonymousPayment.retrying': (session) => {
      const asked = session.server.seen.find((request) => request.path === '/ajax/object-info/model-anon');
      expect(asked?.search).toBe('?retry=order-0');
      expect(session.page.screen.getByRole('radio', { name: /СБП/ })).toBeChecked();
    },
  },
  events: {
    OPEN_BILL: async (session) => void openPage(session, { bill: anonBill() }),
    // The provider's checkUser fails: the payer still pays as a guest.
    OPEN_BILL_PROVIDER_DOWN: async (session) => {
      session.server.once('post', '/ajax/realty/checkUser/', { success: false, error: 'Провайдер недоступен' }, 502);
      session.server.once('get', '/ajax/object-info/model-anon', anonBill() as never);
      session.open({ billLink: 'model-anon' });
    },
    OPEN_PAID_BILL: async (session) => void openPage(session, { bill: anonBill(), billStatus: 404 }),
    OPEN_PAID_BILL_WITH_RECEIPT: async (session) => void openPage(session, paidBillWithReceipt),
    // The network loses the receipt's chunk, the first try and its retry 1.5 s later.
    OPEN_PAID_BILL_CODE_LOST: async (session) => {
      chunkNetwork.lost = true;
      openPage(session, paidBillWithReceipt);
      await settle();
      await elapse(CHUNK_RETRY_MS);
    },
    RETRY_CODE: async (session) => {
      chunkNetwork.lost = false;
      await does.click(session, messages.app.retry);
    },
    OPEN_BILL_TO_RETRY: async (session) => {
      const bill = anonBill();
      openPage(session, { bill: { ...bill, retry: { cardTypeOID: bill.cardTypes[1]!.OID, email: 'payer@example.com', ownAttempt: true, amount: 12345.67, reason: null } }, retryOrder: 'order-0' });
    },
    RELOAD_ON_SBP: reloadOnOpenSbp(false),
    RELOAD_ON_SBP_BACK: reloadOnOpenSbp(true),
    ANOTHER_METHOD: (session) => does.click(session, stepMessages.sbp.anotherMethod),
    CHOOSE_ANOTHER_WAY: (session) => does.click(session, stepMessages.choosePaymentType.openAnother),
    CONFIRM_ANOTHER_WAY: (session) => does.click(session, stepMessages.choosePaymentType.openConfirm),
    RELOAD_TYPED_EMAIL: async (session) => void openPage(session, { bill: anonBill(), resumePath: '/noReg', draft: { typed: { email: 'payer@exa' } } }),
    RELOAD_ON_CHOOSE: async (session) => {
      const bill = anonBill();
      openPage(session, { bill, resumePath: '/choosePaymentType', draft: { email: 'payer@example.com', selectedTypeOid: bill.cardTypes[2]!.OID } });
    },
    BACK_FROM_CARD_FORM: async (session) => {
      const bill = anonBill();
      const card = bill.cardTypes[0]!;
      openPage(session, {
        bill: { ...bill, openAttempt: { orderId: 'order-1', cardTypeOID: card.OID, code: 'ALL', status: 'created', pointsUsed: 0 } },
        resumePath: '/choosePaymentType',
        draft: { email: 'payer@example.com', selectedTypeOid: card.OID },
      });
    },
    // Back to the attempt left open: Pay again with its way, which the server answers with the same attempt's form.
    RESUME_OPEN_ATTEMPT: async (session) => {
      session.server.once('post', '/api/getPaymentUrl/', cardForm);
      await does.click(session, stepMessages.choosePaymentType.openResume);
    },
    OPEN_OFFER_BILL: async (session) => void openPage(session, { bill: offerBill() }),
    OPEN_PARTS_BILL: async (session) => void openPage(session, { bill: partsBill() }),
    TYPE_PART_OVER_REMAINING: (session) => does.type(session, stepMessages.choosePaymentType.partAmount, '1600000'),
    // No answer is scripted: a request for this part would fail the path.
    PAY_PART_OVER_REMAINING: (session) => does.click(session, PAY),
    TYPE_PART: (session) => does.type(session, stepMessages.choosePaymentType.partAmount, '700000'),
    PAY_PART: async (session) => {
      session.server.once('post', '/api/getPaymentUrl/', cardForm);
      await does.click(session, PAY);
    },
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
    // The e-mail accepted, and the network loses the way to pay's chunk, the first try and its retry 1.5 s later.
    EMAIL_ACCEPTED_CODE_LOST: async (session) => {
      chunkNetwork.lost = true;
      session.server.once('post', '/ajax/check-email/', { success: true });
      await does.type(session, messages.email.label, 'payer@example.com');
      await does.click(session, messages.app.continue);
      await settle();
      await elapse(CHUNK_RETRY_MS);
    },
    CONTINUE: (session) => does.click(session, messages.app.continue),
    BACK: (session) => does.click(session, messages.app.back),
    PAY_CARD: async (session) => {
      session.server.once('post', '/api/getPaymentUrl/', cardForm);
      await does.click(session, PAY);
    },
    PAY_WITHOUT_URL: async (session) => {
      session.server.once('post', '/api/getPaymentUrl/', { info: { orderId: 'order-1' } });
      await does.click(session, PAY);
    },
    PAY_SERVER_FAILS: async (session) => {
      session.server.once('post', '/api/getPaymentUrl/', { success: false, error: 'Сервис недоступен' }, 500);
      await does.click(session, PAY);
    },
    PAY_ALREADY_PAID: async (session) => {
      session.server.once('post', '/api/getPaymentUrl/', { success: false, error: 'Счет уже оплачен' }, 409);
      await does.click(session, PAY);
    },
    // The receipt e-mail changed on the payment step: the server checks it, then Pay goes on with it.
    CHANGE_EMAIL_AND_PAY: async (session) => {
      session.server.once('post', '/ajax/check-email/', { success: true });
      session.server.once('post', '/api/getPaymentUrl/', cardForm);
      await does.type(session, messages.email.label, 'changed@example.com');
      await does.click(session, PAY);
    },
    CHANGE_EMAIL_REFUSED: async (session) => {
      session.server.once('post', '/ajax/check-email/', { success: false, error: 'Неверный email' });
      await does.type(session, messages.email.label, 'refused@example.com');
      await does.click(session, PAY);
    },
    PAY_UNTICKED: (session) => does.click(session, PAY),
    SELECT_SBP: (session) => does.click(session, /СБП/, 'radio'),
    PAY_SBP: async (session) => {
      session.server.once('post', '/api/getPaymentUrl/', { info: { orderId: 'order-1', data: { payload: 'http://localhost/sandbox/sbp/qrc-1', qrcId: 'qrc-1', image: { content: 'iVBORw0KGgo=' } } } });
      // The sbp step asks for the status at once; it is still being paid.
      session.server.once('post', '/api/getResult/', { status: 'created', objectOID: 'model-anon' });
      await does.click(session, PAY);
    },
    TICK_BOTH: async (session) => {
      await does.click(session, `${stepMessages.agreement.accept} ${stepMessages.agreement.aggregatorLink}`, 'checkbox');
      await does.click(session, `${stepMessages.agreement.accept} ${stepMessages.agreement.executorLink}`, 'checkbox');
    },
    OPEN_OFFER: async (session) => {
      session.server.once('post', '/api/offerText/', { OfferDescription: '<p>Текст оферты агрегатора</p>' });
      await does.click(session, stepMessages.agreement.aggregatorLink);
    },
    OPEN_OFFER_EMPTY: async (session) => {
      session.server.once('post', '/api/offerText/', {});
      await does.click(session, stepMessages.agreement.aggregatorLink);
    },
    OPEN_OFFER_FAILS: async (session) => {
      session.server.once('post', '/api/offerText/', { success: false, error: 'Нет оферты' }, 500);
      await does.click(session, stepMessages.agreement.executorLink);
    },
    CLOSE_OFFER: (session) => does.click(session, stepMessages.offer.close),
  },
});
