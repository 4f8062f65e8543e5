import { act } from '@testing-library/react';
import { messages } from '../../src/services/messages';
import { stepMessages } from '../../src/services/stepMessages';
import { receiptMessages } from '../../src/services/receiptMessages';
import { elapse } from './support/app';
import { knownEmailBill, openAtChoose, openPage } from './support/bills';
import { paymentStatusModel as model } from './models/payment-status';
import { describeModelFlow, type Session } from './support/flow';
import type { ModelServer } from './support/server';
import { does } from './support/screen';
import { scopeOf } from './support/scopes';
import { PAY } from '../fixtures/payButton';
import { aReceipt } from '../fixtures/receipt';
import { SLOW_POLL_MS } from '../../src/machines/paymentStatus';

const OID = 'model-status';
let tabHidden = false;
Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (tabHidden ? 'hidden' : 'visible') });
const setTab = async (hidden: boolean) => {
  tabHidden = hidden;
  await act(async () => void document.dispatchEvent(new Event('visibilitychange')));
};
/** The browser's connection events, as the page's watcher hears them. */
const network = async (state: 'offline' | 'online') => {
  await act(async () => void window.dispatchEvent(new Event(state)));
};

const status = (server: ModelServer, answer: Record<string, unknown>, code = 200) => server.once('post', '/api/getResult/', answer as never, code);
const created = { status: 'created', objectOID: OID };
// 21:30 UTC on 1 December: 2 December in Moscow.
const held = { status: 'held', objectOID: OID, hold: { amount: 150000, until: '2026-12-01T21:30:00.000Z' } };

const polls = (session: Session) => session.server.seen.filter((request) => request.path === '/api/getResult/').length;

const poll = (answer: Record<string, unknown>, code = 200) => async (session: Session) => {
  status(session.server, answer, code);
  await elapse(5000);
};

async function payBySbp(session: Session, isDesktop: boolean) {
  tabHidden = false;
  await openAtChoose(session, OID, { isDesktop });
  await does.click(session, /СБП/, 'radio');
  session.server.once('post', '/api/getPaymentUrl/', { info: { orderId: 'order-1', data: { payload: 'http://localhost/sandbox/sbp/qrc-1', qrcId: 'qrc-1', image: { content: 'iVBORw0KGgo=' } } } });
  status(session.server, created);
  await does.click(session, PAY);
}

describeModelFlow({
  flow: 'payment-status',
  model,
  scope: scopeOf('payment-status'),
  simplePaths: false,
  checks: {
    // Hidden: however long it stays hidden, no poll goes out (an unscripted poll would fail the path).
    'paymentStatus.paused': async (session) => {
      await elapse(30_000);
      expect(session.server.seen.filter((request) => request.path === '/api/getResult/').length).toBeGreaterThan(0);
    },
    'paymentStatus.stopped': () => elapse(30_000),
    // Back on choosing (Back or 'Попробовать снова'): the way to pay the payer had is still the chosen one.
    'paymentStatus.choosing': (session) => expect(session.page.screen.getByRole('radio', { name: /СБП/ })).toBeChecked(),
    // In the bank app the tab is hidden and polling goes on: two more polls in 10 s.
    // Slow: the next poll comes 15 s later, not 5.
    'paymentStatus.slow': async (session) => {
      const before = polls(session);
      status(session.server, created);
      await elapse(10_000);
      expect(polls(session)).toBe(before);
      await elapse(5000);
      expect(polls(session)).toBe(before + 1);
    },
    'paymentStatus.inBankApp': async (session) => {
      const before = polls(session);
      status(session.server, created);
      status(session.server, created);
      await elapse(10_000);
      expect(polls(session)).toBe(before + 2);
    },
  },
  events: {
    PAY_BY_SBP: (session) => payBySbp(session, true),
    PAY_BY_SBP_ON_PHONE: (session) => payBySbp(session, false),
    POLL_CREATED: poll(created),
    TWO_MINUTES_UNCONFIRMED: async (session) => {
      for (let waited = 0; waited < 120_000; waited += 5000) {
        status(session.server, created);
        await elapse(5000);
      }
    },

    POLL_FAILS: poll({ success: false, error: 'Сбой' }, 500),
    POLL_SUCCESS: async (session) => {
      status(session.server, { status: 'success', objectOID: OID });
      // The result step asks once more for its own status block.
      status(session.server, { status: 'success', objectOID: OID });
      await elapse(5000);
    },
    POLL_DECLINED: async (session) => {
      status(session.server, { status: 'declined', objectOID: OID });
      status(session.server, { status: 'declined', objectOID: OID });
      await elapse(5000);
    },
    POLL_REFUNDED: async (session) => {
      // Paid after the bill was paid: the server's answer carries the refunded payment's receipt (how much, which way).
      const receipt = aReceipt({ status: 'refunded', amount: 12345.67, method: { code: 'SBP', name: 'СБП' } });
      status(session.server, { status: 'refunded', objectOID: OID, receipt });
      status(session.server, { status: 'refunded', objectOID: OID, receipt });
      await elapse(5000);
    },
    POLL_ORDER_NOT_FOUND: poll({ status: null }),
    POLL_DOCUMENT_NOT_FOUND: poll({ success: false, error: 'Not found' }, 404),
    TAB_HIDDEN: () => setTab(true),
    TAB_SHOWN: async (session) => {
      const before = polls(session);
      status(session.server, created);
      await setTab(false);
      // At once, with no time passing: a page frozen while hidden may have slept through its timer.
      expect(polls(session)).toBe(before + 1);
    },
    ANOTHER_METHOD: (session) => does.click(session, stepMessages.sbp.anotherMethod),
    BACK: (session) => does.click(session, messages.app.back),
    RETRY: (session) => does.click(session, receiptMessages.retry),
    // A reload on the result of a fast payment that was declined: polled again (the transaction this tab kept), the
    // same end, and Back to choosing with the way to pay kept.
    RELOAD_ON_RESULT: async (session) => {
      const bill = knownEmailBill(OID);
      const sbp = bill.cardTypes.find((type) => type.Code === 'SBP')!;
      status(session.server, { status: 'declined', objectOID: OID });
      openPage(session, { bill, resumePath: '/result', draft: { email: 'payer@example.com', selectedTypeOid: sbp.OID, transactionID: 'qrc-1' } });
    },
    // The result of a card payment of a bill the merchant captures by hand, reloaded: polled again, the money held.
    RELOAD_ON_HELD_RESULT: async (session) => {
      const bill = knownEmailBill(OID);
      const card = bill.cardTypes.find((type) => type.Code !== 'SBP')!;
      status(session.server, held);
      openPage(session, { bill, resumePath: '/result', draft: { email: 'payer@example.com', selectedTypeOid: card.OID, transactionID: 'order-1' } });
    },
    // A hold is asked about at the slow pace: the merchant's word comes with the poll 15 s later.
    POLL_CAPTURED: async (session) => {
      status(session.server, { status: 'success', objectOID: OID, receipt: aReceipt({ amount: 100000 }) });
      await elapse(SLOW_POLL_MS);
    },
    POLL_RELEASED: async (session) => {
      status(session.server, { status: 'released', objectOID: OID });
      await elapse(SLOW_POLL_MS);
    },
    CONNECTION_LOST: async () => {
      await network('offline');
      // However long it lasts, no poll goes out (an unscripted one would fail the path).
      await elapse(30_000);
    },
    CONNECTION_BACK: async (session) => {
      const before = polls(session);
      status(session.server, created);
      await network('online');
      // At once, with no time passing.
      expect(polls(session)).toBe(before + 1);
    },
    NETWORK_CHANGED: () => network('online'),
  },
});
