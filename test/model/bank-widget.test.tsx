import { WIDGET_INIT_TIMEOUT_MS } from '../../src/machines/bankWidget';
import { bankWidgetModel as model } from './models/bank-widget';
import { elapse, eventually } from './support/app';
import { openAtChoose } from './support/bills';
import { describeModelFlow, type Session } from './support/flow';
import { does } from './support/screen';
import { scopeOf } from './support/scopes';
import { PAY } from '../fixtures/payButton';

const OID = 'model-widget';
const payBySberPay = (options: Parameters<typeof openAtChoose>[2]) => async (session: Session) => {
  await openAtChoose(session, OID, options);
  await does.click(session, /SberPay/, 'radio');
  session.server.once('post', '/api/getPaymentUrl/', { info: { orderId: 'order-1', bankInvoiceId: 'invoice-1' } });
  await does.click(session, PAY);
};

describeModelFlow({
  flow: 'bank-widget',
  model,
  scope: scopeOf('bank-widget'),
  simplePaths: true,
  checks: {
    'bankWidget.safariLoading': (session) => void expect(session.page.opened.at(-1)).toMatch(/access-cookie/),
    'bankWidget.choosing': () => eventually(() => expect(document.body.style.overflow).toBe('')),
  },
  events: {
    PAY_ON_DESKTOP: payBySberPay({}),
    PAY_ON_SAFARI: payBySberPay({ isSafariDesktop: true }),
    PAY_ON_PHONE: payBySberPay({ isDesktop: false }),
    PAY_WITH_BROKEN_BROWSER: payBySberPay({ brokenCrypto: true }),
    WIDGET_ASKS_VERSION: (session) => session.page.fromWidget({ type: 'GET_VERSION' }),
    WIDGET_PAID: (session) => session.page.fromWidget({ type: 'success', payload: { orderId: 'order-1' } }),
    WIDGET_DECLINED: (session) => session.page.fromWidget({ type: 'fail', payload: { orderId: 'order-1' } }),
    WIDGET_CLOSES: (session) => session.page.fromWidget({ type: 'CLOSE_WIDGET' }),
    WIDGET_SILENT_20S: () => elapse(WIDGET_INIT_TIMEOUT_MS),
  },
});

