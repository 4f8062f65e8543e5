import { describeScreensOn, payByKeyboardAlone, violationsOf } from './a11y';
import { useLiveServer, usePages } from './harness';

/** Accessibility at 1280 px: axe on every screen, and a card payment by keyboard alone. */
describe('desktop', () => describeScreensOn('desktop'));

describe('keyboard', () => {
  const live = useLiveServer();
  test('keyboard alone: demo-anon pays by card with Tab, Shift+Tab, arrows, Space and Enter', () => payByKeyboardAlone(live.browser, live.server));

  // The walks pass when the scan finds nothing: this is what shows that it can find something, with axe as the walks
  // put it into a page (its source rewritten as ASCII) and with frames on the page (which the scan does not enter).
  const openPage = usePages(live);
  test('the scan finds what axe finds: a nameless button, an image without a text, grey on white, a frame without a title', async () => {
    const { page } = await openPage();
    await page.setContent(
      '<!doctype html><html lang="ru"><head><title>Счёт</title></head><body><main><h1>Счёт №1</h1>' +
        '<button></button><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><p style="color:#bbb;background:#fff">Оплачено</p>' +
        '<iframe srcdoc="<p>банк</p>"></iframe></main></body></html>',
    );
    const found = (await violationsOf(page)).map((violation) => violation.split(':')[0]);
    expect(found.sort()).toEqual(['button-name', 'color-contrast', 'frame-title', 'image-alt']);
  });
});
