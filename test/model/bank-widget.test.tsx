import { setup } from 'xstate';
import { WIDGET_INIT_TIMEOUT_MS } from '../../src/machines/bankWidget';
import { messages } from '../../src/services/messages';
import { elapse, eventually } from './support/app';
import { openAtChoose } from './support/bills';
import { describeModelFlow, type ModelMeta, type Session } from './support/flow';
import { does, sees } from './support/screen';
import { scopeOf } from './support/scopes';

const OID = 'model-widget';
const test = (check: ModelMeta['test']): ModelMeta => ({ test: check });
const overlayShown = test(() => sees.dialog(messages.widget.title));

/**
 * The bank-app pay widget (SPEC §4): a desktop opens it in an overlay (desktop Safari first opens the helper
 * tab), a phone leaves for it; the widget's messages decide: success and fail go to the return URL, closing
 * returns to choosing, and a widget that never speaks fails after 20000 ms.
 */
const model = setup({}).createMachine({
  id: 'bankWidget',
  initial: 'closed',
  states: {
    closed: { on: { PAY_ON_DESKTOP: 'loading', PAY_ON_SAFARI: 'safariLoading', PAY_ON_PHONE: 'redirected', PAY_WITH_BROKEN_BROWSER: 'failed' } },
    loading: { meta: overlayShown, on: { WIDGET_ASKS_VERSION: 'open', WIDGET_SILENT_20S: 'failed', WIDGET_CLOSES: 'choosing' } },
    safariLoading: {
      meta: test(async (session) => {
        await sees.dialog(messages.widget.title);
        expect(session.page.opened.at(-1)).toMatch(/access-cookie/);
      }),
      on: { WIDGET_ASKS_VERSION: 'open' },
    },
    open: { meta: overlayShown, on: { WIDGET_PAID: 'paid', WIDGET_DECLINED: 'failed', WIDGET_CLOSES: 'choosing' } },
    paid: { meta: test((session) => sees.navigatedTo(session, /\/success\?/)) },
    failed: { meta: test((session) => sees.navigatedTo(session, /\/fail\?/)) },
    redirected: { meta: test((session) => sees.navigatedTo(session, /\/sandbox\/sberpay\/widget/)) },
    choosing: {
      meta: test(async () => {
        await sees.noDialog();
        await sees.button(messages.choosePaymentType.pay);
        await eventually(() => expect(document.body.style.overflow).toBe(''));
      }),
    },
  },
});

const payBySberPay = (options: Parameters<typeof openAtChoose>[2]) => async (session: Session) => {
  await openAtChoose(session, OID, options);
  await does.click(session, /SberPay/, 'radio');
  session.server.once('post', '/api/getPaymentUrl/', { info: { orderId: 'order-1', bankInvoiceId: 'invoice-1' } });
  await does.click(session, messages.choosePaymentType.pay);
};

describeModelFlow({
  flow: 'bank-widget',
  model,
  scope: scopeOf('bank-widget'),
  simplePaths: true,
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

