import { setup } from 'xstate';
import { bankListMessages } from '../../../src/services/bankListMessages';
import { formatMoney } from '../../../src/services/format';
import { stepMessages } from '../../../src/services/stepMessages';
import { receiptMessages } from '../../../src/services/receiptMessages';
import { sees } from '../support/sights';

const onSbp = sees({ text: stepMessages.sbp.scanQr }, { button: stepMessages.sbp.anotherMethod });
// A phone with no bank list given (the list is its own chunk's, tested in test/views/BankList): SPEC's one link.
const onPhone = sees({ heading: bankListMessages.chooseBank }, { link: stepMessages.sbp.openBankApp }, { button: stepMessages.sbp.anotherMethod });

/**
 * The payment status: the sbp step polls /api/getResult/ every 5000 ms until success or declined, then
 * shows the result; a failed poll keeps polling, a hidden tab pauses it, Back and 'Другой способ оплаты' go back.
 * On a phone the payer leaves for the bank app: polling goes on while the tab is hidden, and coming
 * back asks at once, after a failed poll too. A card payment of a bill the merchant captures by hand is held: the
 * result says so until the merchant captures it (the receipt) or releases it.
 */
export const paymentStatusModel = setup({}).createMachine({
  id: 'paymentStatus',
  initial: 'closed',
  states: {
    closed: { on: { PAY_BY_SBP: 'waiting', PAY_BY_SBP_ON_PHONE: 'onPhone', RELOAD_ON_RESULT: 'declined', RELOAD_ON_HELD_RESULT: 'held' } },
    // A bill the merchant captures by hand, paid by card: the money is held, not paid; no receipt until the capture.
    held: {
      meta: sees(
        { heading: stepMessages.status.resultTitle },
        { status: receiptMessages.held },
        { text: /^150\s000,00 руб\.$/ },
        { text: receiptMessages.heldNote('02.12.2026') },
        { noText: receiptMessages.receiptTitle },
      ),
      on: { POLL_CAPTURED: 'captured', POLL_RELEASED: 'released' },
    },
    // Captured: paid, with the receipt of what was taken.
    captured: { meta: sees({ status: stepMessages.status.success }, { text: receiptMessages.receiptTitle }, { noText: receiptMessages.held }) },
    // Released: said so, and the way back to pay again.
    released: { meta: sees({ status: receiptMessages.released }, { button: receiptMessages.retry }) },
    onPhone: { meta: onPhone, on: { TAB_HIDDEN: 'inBankApp', POLL_FAILS: 'onPhoneRetrying' } },
    // In the bank app: however long the tab stays hidden, a poll goes out every 5 s (the jsdom run checks it).
    inBankApp: { meta: onPhone, on: { TAB_SHOWN: 'backFromBankApp' } },
    backFromBankApp: { meta: onPhone },
    onPhoneRetrying: { meta: onPhone, on: { TAB_HIDDEN: 'inBankAppAfterFailure' } },
    inBankAppAfterFailure: { meta: onPhone, on: { TAB_SHOWN: 'backAfterFailure' } },
    backAfterFailure: { meta: onPhone },
    waiting: {
      meta: onSbp,
      on: {
        POLL_CREATED: 'waiting',
        TWO_MINUTES_UNCONFIRMED: 'slow',
        CONNECTION_LOST: 'offline',
        // The browser says 'online' without having been offline (another network): polling just goes on.
        NETWORK_CHANGED: 'onAnotherNetwork',
        POLL_FAILS: 'retrying',
        POLL_SUCCESS: 'paid',
        POLL_DECLINED: 'declined',
        POLL_REFUNDED: 'refunded',
        POLL_ORDER_NOT_FOUND: 'stopped',
        POLL_DOCUMENT_NOT_FOUND: 'stopped',
        TAB_HIDDEN: 'paused',
        ANOTHER_METHOD: 'choosing',
      },
    },
    retrying: { meta: onSbp, on: { POLL_CREATED: 'waiting', TAB_HIDDEN: 'paused', CONNECTION_LOST: 'offline' } },
    onAnotherNetwork: { meta: onSbp },
    // Two minutes and the bank has not confirmed: said as it is, and polled every 15 s from then on.
    slow: { meta: sees({ status: receiptMessages.slow }, { text: stepMessages.sbp.scanQr }) },
    // No connection: it says so, and asks at once when the browser is back online.
    offline: { meta: sees({ status: stepMessages.status.offline }), on: { CONNECTION_BACK: 'waiting' } },
    // Hidden: however long it stays hidden, no poll goes out (the jsdom run checks the requests).
    paused: { meta: sees({ text: stepMessages.sbp.scanQr }), on: { TAB_SHOWN: 'waiting' } },
    stopped: { meta: sees({ text: stepMessages.sbp.scanQr }) },
    // Paid: the result is the end, no 'Назад'; declined: 'Назад' goes to choosing another way.
    paid: { meta: sees({ heading: stepMessages.status.resultTitle }, { status: stepMessages.status.success }, { back: false }) },
    // 'Попробовать снова' is the same step back, with the way to pay kept.
    declined: {
      meta: sees({ heading: stepMessages.status.resultTitle }, { status: stepMessages.status.declined }, { back: true }, { button: receiptMessages.retry }),
      on: { BACK: 'choosing', RETRY: 'choosing' },
    },
    // Paid twice: the bill was paid by another payment and this one's money returned; nothing to go back to.
    // Paid twice: this payment went back, and the payer is told how much and where to.
    refunded: { meta: sees({ heading: stepMessages.status.resultTitle }, { status: stepMessages.status.refundedTo(formatMoney(12345.67), 'account') }, { back: false }) },
    choosing: { meta: sees({ heading: stepMessages.choosePaymentType.title }) },
  },
});
