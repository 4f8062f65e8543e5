import { setup } from 'xstate';
import { messages } from '../../../src/services/messages';
import { stepMessages } from '../../../src/services/stepMessages';
import { receiptMessages } from '../../../src/services/receiptMessages';
import { sees } from '../support/sights';
import { PAY } from '../../fixtures/payButton';

const t = stepMessages.choosePaymentType;
const onChoose = sees({ heading: t.title }, { button: PAY });

/**
 * The anonymous payer (guest → e-mail → choosePaymentType → card form), the data error of a paid bill,
 * and the agreements and offer modal of a type that asks for them. Server answers are events of their own kind.
 */
export const anonymousPaymentModel = setup({}).createMachine({
  id: 'anonymousPayment',
  initial: 'closed',
  states: {
    closed: {
      on: {
        OPEN_BILL: 'guest',
        OPEN_BILL_PROVIDER_DOWN: 'guest',
        OPEN_PAID_BILL: 'dataError',
        OPEN_PAID_BILL_WITH_RECEIPT: 'paidBill',
        OPEN_PAID_BILL_CODE_LOST: 'paidBillCodeLost',
        OPEN_BILL_TO_RETRY: 'retrying',
        RELOAD_ON_SBP: 'sbp',
        RELOAD_ON_SBP_BACK: 'sbpResumed',
        RELOAD_TYPED_EMAIL: 'reloadedTyped',
        RELOAD_ON_CHOOSE: 'reloadedChoosing',
        BACK_FROM_CARD_FORM: 'cardAttemptOpen',
        OPEN_OFFER_BILL: 'offerGuest',
        OPEN_PARTS_BILL: 'partsGuest',
      },
    },
    dataError: { meta: sees({ text: messages.app.dataError }) },
    // A paid bill's link: 'Счет оплачен' with the receipt of its payment, not the data error.
    paidBill: { meta: sees({ heading: receiptMessages.paidTitle }, { text: receiptMessages.receiptTitle }, { noText: messages.app.dataError }) },
    // The receipt's code (a chunk of its own) could not be had, even after its retry: said so, with a retry that works.
    paidBillCodeLost: {
      meta: sees({ alert: messages.app.codeFailed }, { button: messages.app.retry }, { noText: receiptMessages.paidTitle }),
      on: { RETRY_CODE: 'paidBill' },
    },
    // 'Попробовать снова' from the result page: choosing again, the e-mail and the way to pay kept; Back to the bill.
    retrying: { meta: sees({ heading: t.title }, { button: PAY }, { back: true }), on: { BACK: 'guestEmailKnown' } },
    guest: {
      meta: sees({ heading: /^Оплата по договору/ }, { field: messages.email.label }, { back: false }),
      on: { EMAIL_REFUSED_BY_SERVER: 'emailRefused', EMAIL_ACCEPTED: 'choosing', EMAIL_ACCEPTED_CODE_LOST: 'stepCodeLost' },
    },
    // The way to pay's code could not be had, even after its retry: said so in the step's place, with a retry that
    // goes on to the step, and Back to the first step.
    stepCodeLost: {
      meta: sees({ alert: messages.app.codeFailed }, { button: messages.app.retry }, { back: true }, { noField: messages.email.label }),
      on: { RETRY_CODE: 'choosing' },
    },
    emailRefused: {
      meta: sees({ alert: messages.validation.emailRejected }),
      on: { EMAIL_ACCEPTED: 'choosing' },
    },
    choosing: {
      // The receipt e-mail stays on this step, prefilled.
      meta: sees({ heading: t.title }, { button: PAY }, { field: messages.email.label }),
      on: {
        PAY_CARD: 'cardForm',
        PAY_WITHOUT_URL: 'noPaymentUrl',
        PAY_SERVER_FAILS: 'noPaymentUrl',
        PAY_ALREADY_PAID: 'alreadyPaid',
        CHANGE_EMAIL_AND_PAY: 'cardForm',
        CHANGE_EMAIL_REFUSED: 'payEmailRefused',
        SELECT_SBP: 'sbpChosen',
        BACK: 'guestEmailKnown',
      },
    },
    // A stale tab (the bill was paid meanwhile): it says so, not 'Не удалось перейти к оплате…'.
    alreadyPaid: { meta: sees({ heading: t.alreadyPaid }, { noAlert: t.noPaymentUrl }, { noButton: PAY }, { back: false }) },
    payEmailRefused: {
      meta: sees({ alert: messages.validation.emailRejected }, { button: PAY }),
      on: { CHANGE_EMAIL_AND_PAY: 'cardForm' },
    },
    guestEmailKnown: {
      meta: sees({ noField: messages.email.label }, { button: messages.app.continue }),
      on: { CONTINUE: 'choosing' },
    },
    noPaymentUrl: {
      meta: sees({ alert: t.noPaymentUrl }, { button: PAY }),
      on: { PAY_CARD: 'cardForm' },
    },
    sbpChosen: {
      meta: sees({ text: /Сервисный сбор: 185,19 руб\./ }),
      on: { PAY_SBP: 'sbp' },
    },
    sbp: { meta: sees({ text: stepMessages.sbp.scanQr }) },
    // Reloaded on the QR, then 'Другой способ оплаты': the way to pay with the e-mail kept (this tab's draft), and the
    // QR's attempt said to be open (Pay finds it again rather than a second one).
    sbpResumed: { meta: sees({ text: stepMessages.sbp.scanQr }), on: { ANOTHER_METHOD: 'sbpLeftOpen' } },
    // The QR may still be paid: it is said, and no other way is offered before the payer chooses to abandon it.
    sbpLeftOpen: {
      meta: sees({ heading: t.title }, { status: t.openTitle }, { button: t.openResume }, { noButton: PAY }, { noAlert: stepMessages.validation.emailRequired }),
      on: { CHOOSE_ANOTHER_WAY: 'abandoningOpen' },
    },
    // Another way abandons the QR: asked first, with the way back to it still on offer.
    abandoningOpen: {
      meta: sees({ status: t.openConfirmTitle }, { button: t.openConfirm }, { button: t.openResume }, { noButton: PAY }),
      on: { CONFIRM_ANOTHER_WAY: 'openAbandoned' },
    },
    // Confirmed: the ways to pay with the way and e-mail kept (the jsdom check), the notice put away.
    openAbandoned: { meta: sees({ heading: t.title }, { button: PAY }, { noText: t.openTitle }, { noText: t.openConfirmTitle }) },
    // A reload on the first step 2 s after typing: the e-mail typed is in the field again (the jsdom check reads it).
    reloadedTyped: { meta: sees({ heading: /^Оплата по договору/ }, { field: messages.email.label }, { back: false }), on: { EMAIL_ACCEPTED: 'choosing' } },
    // A reload on the way to pay: the e-mail, the way to pay (the jsdom check) kept; Back to the first step.
    reloadedChoosing: { meta: sees({ heading: t.title }, { button: PAY }, { back: true }, { noText: t.openTitle }), on: { BACK: 'guestEmailKnown' } },
    // Back from the bank's card form: everything kept, and the card payment said to be still open there.
    cardAttemptOpen: {
      meta: sees({ heading: t.title }, { status: t.openTitle }, { button: t.openResume }, { noButton: PAY }),
      on: { RESUME_OPEN_ATTEMPT: 'cardForm' },
    },
    cardForm: { meta: sees({ navigatedTo: /\/sandbox\/acquirer\/[^/?#]+$/ }) },

    // A bill paid in parts: the part typed in 'Сумма платежа'; one the bill cannot take says why and is not asked for.
    partsGuest: { meta: sees({ button: messages.app.continue }), on: { CONTINUE: 'partsChoosing' } },
    partsChoosing: {
      meta: sees({ heading: t.title }, { text: 'Осталось оплатить 1 500 000,00 руб.' }, { field: t.partAmount }, { button: /^Оплатить 1\s500\s000,00 руб\.$/ }),
      on: { TYPE_PART_OVER_REMAINING: 'partOverRemaining' },
    },
    partOverRemaining: {
      meta: sees({ text: 'Не больше, чем осталось оплатить: 1 500 000,00 руб.' }),
      on: { PAY_PART_OVER_REMAINING: 'partNotAskedFor' },
    },
    partNotAskedFor: {
      meta: sees({ text: 'Не больше, чем осталось оплатить: 1 500 000,00 руб.' }, { noAlert: t.noPaymentUrl }, { heading: t.title }),
      on: { TYPE_PART: 'partTyped' },
    },
    partTyped: {
      meta: sees({ button: /^Оплатить 700\s000,00 руб\.$/ }, { noText: 'Не больше, чем осталось оплатить: 1 500 000,00 руб.' }),
      on: { PAY_PART: 'partCardForm' },
    },
    partCardForm: { meta: sees({ navigatedTo: /\/sandbox\/acquirer\/[^/?#]+$/ }) },

    offerGuest: { meta: sees({ button: messages.app.continue }), on: { CONTINUE: 'offerChoosing' } },
    offerChoosing: {
      meta: onChoose,
      on: { PAY_UNTICKED: 'agreementsMissing', OPEN_OFFER: 'offerShown', OPEN_OFFER_EMPTY: 'offerEmpty', OPEN_OFFER_FAILS: 'offerFailed', TICK_BOTH: 'ticked' },
    },
    agreementsMissing: {
      meta: sees({ alert: t.offerRequired }, { alert: t.executorRequired }),
      on: { TICK_BOTH: 'ticked' },
    },
    ticked: {
      meta: sees({ noAlert: t.offerRequired }),
      on: { PAY_CARD: 'cardForm' },
    },
    offerShown: {
      meta: sees({ dialog: stepMessages.offer.title }, { text: 'Текст оферты агрегатора' }),
      on: { CLOSE_OFFER: 'offerChoosing' },
    },
    offerEmpty: {
      meta: sees({ dialog: stepMessages.offer.title }, { alert: t.offerFailed }),
      on: { CLOSE_OFFER: 'offerChoosing' },
    },
    // The payment terms' link: a modal titled as the terms, not as the offer.
    offerFailed: {
      meta: sees({ dialog: stepMessages.offer.executorTitle }, { alert: t.offerFailed }),
      on: { CLOSE_OFFER: 'offerChoosing' },
    },
  },
});
