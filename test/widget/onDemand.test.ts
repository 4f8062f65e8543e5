import { bankWidgetOnDemand, type WidgetReport } from '../../src/widget';
import { fakeWindow } from './fakeWindow';

/** The widget's code loads on demand (the first load does not carry it); it behaves as the client itself. */

const request = { code: 'SberPaySite', bankInvoiceId: 'inv-1', orderId: 'order-1', billOid: 'bill-1', isSafariDesktop: false };

afterEach(() => {
  document.body.innerHTML = '';
  document.body.style.overflow = '';
});

test('the return URL needs none of the code', () => {
  const { win } = fakeWindow();
  expect(bankWidgetOnDemand(win, 'local').returnUrl({ bankInvoiceId: 'inv-1', orderId: 'order-1', billOid: 'bill-1' }, 'fail')).toBe(
    'https://pay.example.ru/fail?orderId=order-1&billOid=bill-1&state=return&bankInvoiceId=inv-1',
  );
});

test('open before the code has come: the overlay opens once it has; closing before that opens nothing', async () => {
  const { win } = fakeWindow();
  const widget = bankWidgetOnDemand(win, 'local');
  const reports: WidgetReport[] = [];
  const closeEarly = widget.open(request, (event) => reports.push(event));
  closeEarly();
  const close = widget.open(request, (event) => reports.push(event));
  expect(document.querySelector('.bank-widget-overlay')).toBeNull();
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(document.querySelectorAll('.bank-widget-overlay')).toHaveLength(1);
  close();
  expect(document.querySelector('.bank-widget-overlay')).toBeNull();
  expect(reports).toEqual([]);
});

test('once preloaded, open is immediate; the phone redirect goes to the widget page', async () => {
  const { win, navigations } = fakeWindow();
  const widget = bankWidgetOnDemand(win, 'local');
  widget.preload();
  await new Promise((resolve) => setTimeout(resolve, 0));
  const close = widget.open(request, () => undefined);
  expect(document.querySelectorAll('.bank-widget-overlay')).toHaveLength(1);
  close();
  widget.redirect(request);
  expect(navigations[0]).toMatch(/^https:\/\/pay\.example\.ru\/sandbox\/sberpay\/widget\?orderId=order-1&params=/);
});
