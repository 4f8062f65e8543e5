import { setup } from 'xstate';
import { messages } from '../../../src/services/messages';
import { sees } from '../support/sights';

const onSbp = sees({ text: messages.sbp.desktop }, { button: messages.sbp.anotherMethod });

/**
 * The payment status (SPEC §4): the sbp step polls /api/getResult/ every 5000 ms until success or declined, then
 * shows the result; a failed poll keeps polling, a hidden tab pauses it, Back and 'Другой способ оплаты' go back.
 */
export const paymentStatusModel = setup({}).createMachine({
  id: 'paymentStatus',
  initial: 'closed',
  states: {
    closed: { on: { PAY_BY_SBP: 'waiting' } },
    waiting: {
      meta: onSbp,
      on: {
        POLL_CREATED: 'waiting',
        POLL_FAILS: 'retrying',
        POLL_SUCCESS: 'paid',
        POLL_DECLINED: 'declined',
        POLL_ORDER_NOT_FOUND: 'stopped',
        POLL_DOCUMENT_NOT_FOUND: 'stopped',
        TAB_HIDDEN: 'paused',
        ANOTHER_METHOD: 'choosing',
      },
    },
    retrying: { meta: onSbp, on: { POLL_CREATED: 'waiting', TAB_HIDDEN: 'paused' } },
    // Hidden: however long it stays hidden, no poll goes out (the jsdom run checks the requests).
    paused: { meta: sees({ text: messages.sbp.desktop }), on: { TAB_SHOWN: 'waiting' } },
    stopped: { meta: sees({ text: messages.sbp.desktop }) },
    paid: { meta: sees({ heading: messages.status.resultTitle }, { status: messages.status.success }), on: { BACK_TO_SBP: 'paid' } },
    declined: { meta: sees({ heading: messages.status.resultTitle }, { status: messages.status.declined }) },
    choosing: { meta: sees({ heading: messages.choosePaymentType.title }) },
  },
});
