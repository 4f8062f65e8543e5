import { BANK_HOSTS, createBankWidget, decodeParameters, FRAME_SANDBOX, HELPER_TAB_FEATURES, type WidgetReport } from '../../src/widget';
import { screen } from '@testing-library/react';
import { stepMessages } from '../../src/services/stepMessages';
import { fakeWindow, widgetFrame } from './fakeWindow';

const PAGE = 'https://pay.example.ru';
const request = { code: 'SberPaySite', bankInvoiceId: 'inv-1', orderId: 'order-1', billOid: 'bill-1', isSafariDesktop: false };

function openDesktop(env = fakeWindow(), environment: Parameters<typeof createBankWidget>[1] = 'local', req = request) {
  const reports: WidgetReport[] = [];
  const client = createBankWidget(env.win, environment);
  const close = client.open(req, (event) => reports.push(event));
  return { ...env, client, reports, close, ...widgetFrame() };
}

afterEach(() => {
  document.body.innerHTML = '';
  document.body.style.overflow = '';
});

describe('desktop iframe overlay', () => {
  test('opens the widget page in a sandboxed iframe under a random id and locks page scrolling', () => {
    document.body.style.overflow = 'auto';
    const { frame } = openDesktop();
    const overlay = frame.parentElement!;
    expect(overlay.id).toMatch(/^bank-widget-[0-9a-f]{16}$/);
    expect(overlay).toHaveAttribute('role', 'dialog');
    expect(overlay).toHaveAttribute('aria-modal', 'true');
    const sandbox = frame.getAttribute('sandbox')!.split(' ');
    expect(sandbox).toEqual(expect.arrayContaining(['allow-scripts', 'allow-forms', 'allow-popups', 'allow-modals', 'allow-storage-access-by-user-activation']));
    expect(frame.getAttribute('sandbox')).toBe(FRAME_SANDBOX);
    expect(document.body.style.overflow).toBe('hidden');
  });

  test('two openings never share an id', () => {
    const first = openDesktop();
    const firstId = first.frame.parentElement!.id;
    first.close();
    const second = openDesktop();
    expect(second.frame.parentElement!.id).not.toBe(firstId);
  });

  test('the iframe URL carries platform=desktop, orderId and the base64 parameters', () => {
    const { frame } = openDesktop();
    const url = new URL(frame.src);
    expect(url.origin + url.pathname).toBe(`${PAGE}/sandbox/sberpay/widget`);
    expect(url.searchParams.get('platform')).toBe('desktop');
    expect(url.searchParams.get('orderId')).toBe('order-1');
    expect(decodeParameters(url.searchParams.get('params')!)).toEqual({
      bankInvoiceId: 'inv-1',
      orderId: 'order-1',
      successUrl: `${PAGE}/success?orderId=order-1&billOid=bill-1&state=success&bankInvoiceId=inv-1`,
      failUrl: `${PAGE}/fail?orderId=order-1&billOid=bill-1&state=return&bankInvoiceId=inv-1`,
      backUrl: `${PAGE}/success?orderId=order-1&billOid=bill-1&state=return&bankInvoiceId=inv-1`,
      href: `${PAGE}/pay/bill-1`,
      host: PAGE,
      isSafariDesktop: false,
    });
  });

  test('closing removes the overlay, stops listening and restores page scrolling', () => {
    document.body.style.overflow = 'auto';
    const { close, listeners } = openDesktop();
    close();
    expect(document.querySelector('.bank-widget-overlay')).toBeNull();
    expect(document.body.style.overflow).toBe('auto');
    expect(listeners.size).toBe(0);
  });
});

describe('the overlay is a modal dialog', () => {
  test('Esc, or its close button, asks to close it, as the widget’s CLOSE_WIDGET does', () => {
    const { reports, close } = openDesktop();
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    expect(reports).toEqual([]);
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(reports).toEqual([{ type: 'widget.closed' }]);
    document.querySelector<HTMLButtonElement>('.bank-widget-close')!.click();
    expect(reports).toEqual([{ type: 'widget.closed' }, { type: 'widget.closed' }]);
    close();
    // Closed: Esc is the page's own again.
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(reports).toHaveLength(2);
  });

  test('focus stays inside: it starts on the close button, the page behind is inert, and focus there comes back', () => {
    const page = document.createElement('main');
    const pay = document.createElement('button');
    page.appendChild(pay);
    document.body.appendChild(page);
    pay.focus();
    const { close } = openDesktop();
    const closeButton = screen.getByRole('button', { name: stepMessages.widget.close });
    expect(closeButton).toHaveFocus();
    expect(page).toHaveAttribute('inert');
    pay.focus();
    expect(closeButton).toHaveFocus();

    jest.useFakeTimers();
    try {
      close();
      expect(page).not.toHaveAttribute('inert');
      jest.runAllTimers();
      expect(pay).toHaveFocus();
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('message protocol', () => {
  test('messages from any origin but the widget’s exact origin are ignored', () => {
    const { deliver, source, reports, postMessage, navigations } = openDesktop();
    deliver({ type: 'success' }, 'https://evil.example', source);
    deliver({ type: 'GET_PARAMETERS' }, 'https://pay.example.ru.evil.example', source);
    deliver({ type: 'OPEN_LINK', payload: { link: 'https://evil.example' } }, 'http://pay.example.ru', source);
    deliver({ type: 'CLOSE_WIDGET' }, 'null', source);
    expect(reports).toEqual([]);
    expect(postMessage).not.toHaveBeenCalled();
    expect(navigations).toEqual([]);
  });

  test('messages of the right origin from another window (the page itself, another frame) are ignored', () => {
    const { deliver, reports, win } = openDesktop();
    deliver({ type: 'success' }, PAGE, win);
    deliver({ type: 'success' }, PAGE, null);
    expect(reports).toEqual([]);
  });

  test('GET_VERSION, GET_PARAMETERS and GET_ORDERID are answered to the exact origin, never "*"', () => {
    const { deliver, source, postMessage, reports } = openDesktop();
    deliver({ type: 'GET_VERSION' }, PAGE, source);
    deliver({ type: 'GET_PARAMETERS' }, PAGE, source);
    deliver({ type: 'GET_ORDERID' }, PAGE, source);
    expect(reports).toEqual([{ type: 'widget.ready' }]);
    expect(postMessage.mock.calls.map((call) => call[1])).toEqual([PAGE, PAGE, PAGE]);
    expect(postMessage.mock.calls[0]![0]).toEqual({ type: 'GET_VERSION', payload: 'checkout-1' });
    expect(postMessage.mock.calls[1]![0]).toEqual({ type: 'GET_PARAMETERS', payload: expect.objectContaining({ bankInvoiceId: 'inv-1', orderId: 'order-1', host: PAGE }) });
    expect(postMessage.mock.calls[2]![0]).toEqual({ type: 'GET_ORDERID', payload: 'order-1' });
  });

  test('the widget’s own answers are not answered again', () => {
    const { deliver, source, postMessage, reports } = openDesktop();
    deliver({ type: 'GET_VERSION', payload: 'sandbox-1' }, PAGE, source);
    expect(postMessage).not.toHaveBeenCalled();
    expect(reports).toEqual([{ type: 'widget.ready' }]);
  });

  test.each([
    [{ type: 'success', payload: { orderId: 'order-1' } }, 'widget.success'],
    [{ type: 'fail', payload: { reason: 'declined' } }, 'widget.fail'],
    [{ type: 'CLOSE_WIDGET' }, 'widget.closed'],
  ])('%j is reported as %s', (message, report) => {
    const { deliver, source, reports } = openDesktop();
    deliver(message, PAGE, source);
    expect(reports).toEqual([{ type: 'widget.ready' }, { type: report }]);
  });

  test('OPEN_LINK navigates to the link; a script link is refused', () => {
    const { deliver, source, navigations } = openDesktop();
    deliver({ type: 'OPEN_LINK', payload: { link: 'javascript:alert(1)' } }, PAGE, source);
    deliver({ type: 'OPEN_LINK', payload: { link: 'data:text/html,hi' } }, PAGE, source);
    deliver({ type: 'OPEN_LINK', payload: { link: 'https://bank.example/app?order=1' } }, PAGE, source);
    expect(navigations).toEqual(['https://bank.example/app?order=1']);
  });

  test('anything that is not a protocol message is ignored', () => {
    const { deliver, source, reports } = openDesktop();
    for (const data of [null, 'success', 42, {}, { type: 'PAY_NOW' }, { type: 7 }, { type: 'OPEN_LINK', payload: {} }]) deliver(data, PAGE, source);
    expect(reports).toEqual([]);
  });

  test('a bank host widget answers only to the bank host’s origin', () => {
    const { deliver, source, reports, postMessage } = openDesktop(fakeWindow(), 'production');
    deliver({ type: 'GET_ORDERID' }, PAGE, source);
    expect(reports).toEqual([]);
    deliver({ type: 'GET_ORDERID' }, BANK_HOSTS.bankAppPay.production, source);
    expect(postMessage).toHaveBeenCalledWith({ type: 'GET_ORDERID', payload: 'order-1' }, BANK_HOSTS.bankAppPay.production);
  });
});

describe('desktop Safari helper tab', () => {
  test('opens /access-cookie on the widget host, 450x500 at 200,200, and hears the widget from it', () => {
    const env = fakeWindow();
    const client = createBankWidget(env.win, 'local');
    client.openHelperTab('SberPaySite');
    expect(env.opened).toEqual([{ url: `${PAGE}/sandbox/sberpay/access-cookie`, target: expect.any(String), features: HELPER_TAB_FEATURES }]);
    expect(HELPER_TAB_FEATURES).toBe('width=450,height=500,left=200,top=200');

    const reports: WidgetReport[] = [];
    client.open({ ...request, isSafariDesktop: true }, (event) => reports.push(event));
    const { frame } = widgetFrame();
    expect(decodeParameters(new URL(frame.src).searchParams.get('params')!).isSafariDesktop).toBe(true);
    env.deliver({ type: 'GET_VERSION' }, PAGE, env.helperTab);
    expect(env.helperTab.postMessage).toHaveBeenCalledWith({ type: 'GET_VERSION', payload: 'checkout-1' }, PAGE);
    expect(reports).toEqual([{ type: 'widget.ready' }]);
  });

  test('on the bank hosts the helper tab is /access-cookie of that host', () => {
    const env = fakeWindow();
    createBankWidget(env.win, 'test').openHelperTab('SberPaySite');
    expect(env.opened[0]!.url).toBe(`${BANK_HOSTS.bankAppPay.test}/access-cookie`);
  });
});

describe('mobile redirect', () => {
  test('sends the whole page to the widget with the base64 parameter bundle and no platform', () => {
    const env = fakeWindow();
    createBankWidget(env.win, 'local').redirect(request);
    expect(env.navigations).toHaveLength(1);
    const url = new URL(env.navigations[0]!);
    expect(url.origin + url.pathname).toBe(`${PAGE}/sandbox/sberpay/widget`);
    expect(url.searchParams.has('platform')).toBe(false);
    expect(url.searchParams.get('orderId')).toBe('order-1');
    const bundle = decodeParameters(url.searchParams.get('params')!);
    expect(Object.keys(bundle).sort()).toEqual(['backUrl', 'bankInvoiceId', 'failUrl', 'host', 'href', 'isSafariDesktop', 'orderId', 'successUrl']);
    expect(bundle.successUrl).toBe(`${PAGE}/success?orderId=order-1&billOid=bill-1&state=success&bankInvoiceId=inv-1`);
    expect(document.querySelector('.bank-widget-overlay')).toBeNull();
  });

  test('the bundle survives non-ASCII text (UTF-8 before base64)', () => {
    const env = fakeWindow('https://pay.example.ru/pay/счет-1');
    createBankWidget(env.win, 'local').redirect({ ...request, orderId: 'заказ-1' });
    const bundle = decodeParameters(new URL(env.navigations[0]!).searchParams.get('params')!);
    expect(bundle.orderId).toBe('заказ-1');
  });
});

describe('hosts by environment', () => {
  test.each([
    ['test', 'SberPaySite', BANK_HOSTS.bankAppPay.test],
    ['preprod', 'SberPaySite', BANK_HOSTS.bankAppPay.preprod],
    ['production', 'SberPaySite', BANK_HOSTS.bankAppPay.production],
    ['production', 'SberPaySiteP', BANK_HOSTS.general.production],
    ['local', 'SberPaySite', PAGE],
    ['local-https', 'SberPaySiteP', PAGE],
  ] as const)('%s, %s: the widget comes from %s (desktop and mobile variants differ on bank hosts)', (environment, code, origin) => {
    const env = fakeWindow();
    const client = createBankWidget(env.win, environment);
    client.open({ ...request, code }, () => undefined);
    const desktop = new URL(widgetFrame().frame.src);
    client.redirect({ ...request, code });
    const mobile = new URL(env.navigations[0]!);
    expect(desktop.origin).toBe(origin);
    expect(mobile.origin).toBe(origin);
    if (origin !== PAGE) expect(desktop.pathname).not.toBe(mobile.pathname);
  });

  test('the return URL for an outcome is on the pay site and carries state and bankInvoiceId', () => {
    const client = createBankWidget(fakeWindow().win, 'production');
    const ids = { bankInvoiceId: 'inv-1', orderId: 'order-1', billOid: 'bill-1' };
    const success = new URL(client.returnUrl(ids, 'success'));
    expect(success.origin + success.pathname).toBe(`${PAGE}/success`);
    expect(Object.fromEntries(success.searchParams)).toEqual({ orderId: 'order-1', billOid: 'bill-1', state: 'success', bankInvoiceId: 'inv-1' });
    expect(new URL(client.returnUrl(ids, 'fail')).searchParams.get('state')).toBe('return');
  });
});
