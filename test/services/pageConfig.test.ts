import { readCookie, readManagerId, readPageConfig } from '../../src/services/pageConfig';

describe('manager_id from its cookie', () => {
  test('sent when it fits the pattern the server checks', () => {
    expect(readManagerId('a=1; manager_id=Mgr_7.east-1; b=2')).toBe('Mgr_7.east-1');
    expect(readManagerId('a=1')).toBeNull();
  });

  test.each([
    ['markup', encodeURIComponent('"><img src=x>')],
    ['spaces', 'mgr%201'],
    ['too long', 'm'.repeat(65)],
    ['empty', ''],
    ['a broken escape', '%E0%A4%A'],
  ])('not sent when it has %s (the server would refuse the payment)', (_what, value) => {
    expect(readManagerId(`manager_id=${value}`)).toBeNull();
  });

  test('a broken escape in a cookie reads as no value instead of throwing', () => {
    expect(readCookie('x', 'x=%E0%A4%A')).toBeNull();
  });
});

describe('the page config meta tag', () => {
  const withConfig = (config: unknown) => {
    const doc = document.implementation.createHTMLDocument('');
    const meta = doc.createElement('meta');
    meta.name = 'config';
    meta.content = JSON.stringify(config);
    doc.head.appendChild(meta);
    return doc;
  };

  test("the merchant's name and support contact, empty when the server names none", () => {
    const merchant = { name: 'ООО «Демо Девелопмент»', supportPhone: '+7 (800) 555-01-00', supportEmail: 'support@example.com' };
    expect(readPageConfig(withConfig({ billLink: 'bill-1', merchant })).merchant).toEqual(merchant);
    expect(readPageConfig(withConfig({ billLink: 'bill-1' })).merchant).toEqual({ name: '', supportPhone: '', supportEmail: '' });
  });

  test('the poll interval: a positive number of milliseconds when the server sets one, else none (the page keeps its own)', () => {
    expect(readPageConfig(withConfig({ pollMs: 250 })).pollMs).toBe(250);
    for (const pollMs of [undefined, null, 0, -5, '250', Number.NaN]) expect(readPageConfig(withConfig({ pollMs })).pollMs).toBeNull();
  });

  test("the result page's returnUrl: an http(s) address, anything else none", () => {
    expect(readPageConfig(withConfig({ returnUrl: 'https://shop.example.ru/orders/1' })).returnUrl).toBe('https://shop.example.ru/orders/1');
    expect(readPageConfig(withConfig({})).returnUrl).toBeNull();
    for (const returnUrl of ['javascript:alert(1)', 'data:text/html,x', 'not a url', 42]) {
      expect(readPageConfig(withConfig({ returnUrl })).returnUrl).toBeNull();
    }
  });
});
