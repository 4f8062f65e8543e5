import { setup } from 'xstate';
import { stepMessages } from '../../../src/services/stepMessages';
import { sees } from '../support/sights';
import { PAY } from '../../fixtures/payButton';

const overlayShown = sees({ dialog: stepMessages.widget.title });

/**
 * The bank-app pay widget: a desktop opens it in an overlay (desktop Safari first opens the helper
 * tab), a phone leaves for it; the widget's messages decide: success and fail go to the return URL, closing
 * returns to choosing, and a widget that never speaks fails after 20000 ms.
 */
export const bankWidgetModel = setup({}).createMachine({
  id: 'bankWidget',
  initial: 'closed',
  states: {
    closed: { on: { PAY_ON_DESKTOP: 'loading', PAY_ON_SAFARI: 'safariLoading', PAY_ON_PHONE: 'redirected', PAY_WITH_BROKEN_BROWSER: 'failed' } },
    loading: { meta: overlayShown, on: { WIDGET_ASKS_VERSION: 'open', WIDGET_SILENT_20S: 'failed', WIDGET_CLOSES: 'choosing' } },
    // The jsdom run also checks the helper tab was opened first.
    safariLoading: { meta: overlayShown, on: { WIDGET_ASKS_VERSION: 'open' } },
    open: { meta: overlayShown, on: { WIDGET_PAID: 'paid', WIDGET_DECLINED: 'failed', WIDGET_CLOSES: 'choosing' } },
    paid: { meta: sees({ navigatedTo: /\/success\?/ }) },
    failed: { meta: sees({ navigatedTo: /\/fail\?/ }) },
    redirected: { meta: sees({ navigatedTo: /\/sandbox\/sberpay\/widget/ }) },
    // The jsdom run also checks the page scrolls again.
    choosing: { meta: sees({ noDialog: true }, { button: PAY }) },
  },
});
