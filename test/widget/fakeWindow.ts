import type { WidgetWindow } from '../../src/widget';

/**
 * A fake window for the widget client: jsdom's document (so the overlay and its iframe are real elements), a
 * location that records navigation, window.open that records its arguments, and a message bus the test drives.
 */
export function fakeWindow(href = 'https://pay.example.ru/pay/bill-1') {
  const listeners = new Set<(event: MessageEvent) => void>();
  const navigations: string[] = [];
  const helperTab = { postMessage: jest.fn() } as unknown as WindowProxy;
  const opened: { url: string; target: string; features: string }[] = [];
  const win: WidgetWindow = {
    document,
    location: { href, origin: new URL(href).origin, assign: (url: string) => void navigations.push(url) },
    open: (url, target, features) => {
      opened.push({ url, target, features });
      return helperTab;
    },
    addEventListener: (_type, listener) => void listeners.add(listener),
    removeEventListener: (_type, listener) => void listeners.delete(listener),
    crypto: globalThis.crypto,
  };
  /** Delivers a message as the browser would: with the sender's origin and window. */
  const deliver = (data: unknown, origin: string, source: unknown) => {
    for (const listener of [...listeners]) listener({ data, origin, source } as MessageEvent);
  };
  return { win, navigations, opened, helperTab, listeners, deliver };
}

/** The overlay's iframe and a spy on what the page posts into it. */
export function widgetFrame() {
  const frame = document.querySelector<HTMLIFrameElement>('.bank-widget-overlay iframe');
  if (!frame?.contentWindow) throw new Error('no widget frame');
  const postMessage = jest.spyOn(frame.contentWindow, 'postMessage').mockImplementation(() => undefined);
  return { frame, source: frame.contentWindow, postMessage };
}
