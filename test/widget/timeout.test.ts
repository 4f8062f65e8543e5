import { createActor, waitFor } from 'xstate';
import type { BrowserEnvironment } from '../../src/services/environment';
import { createBankWidget } from '../../src/widget';
import { defineBankWidgetActor } from '../../src/actors/payment';
import { fakeWindow, widgetFrame } from './fakeWindow';

const PAGE = 'https://pay.example.ru';
const input = { code: 'SberPaySite', bankInvoiceId: 'inv-1', orderId: 'order-1', billOid: 'bill-1', isDesktop: true };

/** The real widget client over a fake window, wired into the bankWidget machine exactly as the page does. */
function start(isSafariDesktop = false) {
  const env = fakeWindow();
  const navigated: string[] = [];
  const logged: unknown[] = [];
  const browser: BrowserEnvironment = { isDesktop: true, isSafariDesktop, platform: 'other', storage: null, navigate: (url) => void navigated.push(url), reload: () => undefined };
  const bankWidget = defineBankWidgetActor({ env: browser, log: (error) => void logged.push(error), widget: createBankWidget(env.win, 'local') });
  const actor = createActor(bankWidget, { input }).start();
  return { ...env, actor, navigated, logged };
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => {
  jest.useRealTimers();
  document.body.innerHTML = '';
});

test('a widget that never speaks fails after 20000 ms: the overlay closes and the page goes to the fail URL', async () => {
  const { actor, navigated, logged } = start();
  expect(document.querySelector('.bank-widget-overlay')).not.toBeNull();
  jest.advanceTimersByTime(19_999);
  expect(actor.getSnapshot().hasTag('loading')).toBe(true);
  jest.advanceTimersByTime(1);
  await waitFor(actor, (s) => s.status === 'done');
  expect(actor.getSnapshot().output).toEqual({ result: 'fail' });
  expect(document.querySelector('.bank-widget-overlay')).toBeNull();
  expect(navigated).toEqual([`${PAGE}/fail?orderId=order-1&billOid=bill-1&state=return&bankInvoiceId=inv-1`]);
  expect(logged).toHaveLength(1);
});

test('a forged message from another origin does not count as the widget initialising', () => {
  const { actor, deliver } = start();
  const { source } = widgetFrame();
  deliver({ type: 'GET_VERSION' }, 'https://evil.example', source);
  deliver({ type: 'success' }, 'https://evil.example', source);
  jest.advanceTimersByTime(20_000);
  expect(actor.getSnapshot().value).toBe('fail');
});

test('a widget that speaks in time stays open past 20000 ms; its success closes it and goes to the success URL', () => {
  const { actor, deliver, navigated } = start();
  const { source, postMessage } = widgetFrame();
  jest.advanceTimersByTime(5_000);
  deliver({ type: 'GET_PARAMETERS' }, PAGE, source);
  expect(postMessage).toHaveBeenCalledWith(expect.objectContaining({ type: 'GET_PARAMETERS' }), PAGE);
  jest.advanceTimersByTime(60_000);
  expect(actor.getSnapshot().hasTag('open')).toBe(true);
  deliver({ type: 'success' }, PAGE, source);
  expect(actor.getSnapshot().output).toEqual({ result: 'success' });
  expect(document.querySelector('.bank-widget-overlay')).toBeNull();
  expect(navigated).toEqual([`${PAGE}/success?orderId=order-1&billOid=bill-1&state=success&bankInvoiceId=inv-1`]);
});

test('CLOSE_WIDGET closes the overlay, restores scrolling and hands the payer back without navigating', () => {
  document.body.style.overflow = 'scroll';
  const { actor, deliver, navigated } = start();
  const { source } = widgetFrame();
  expect(document.body.style.overflow).toBe('hidden');
  deliver({ type: 'CLOSE_WIDGET' }, PAGE, source);
  expect(actor.getSnapshot().output).toEqual({ result: 'closed' });
  expect(document.body.style.overflow).toBe('scroll');
  expect(navigated).toEqual([]);
});

test('desktop Safari opens the helper tab before the overlay', () => {
  const { opened } = start(true);
  expect(opened).toEqual([{ url: `${PAGE}/sandbox/sberpay/access-cookie`, target: expect.any(String), features: 'width=450,height=500,left=200,top=200' }]);
  expect(document.querySelector('.bank-widget-overlay')).not.toBeNull();
});
