import { familyOf, widgetHost, type WidgetEnvironment } from './hosts';
import { openOverlay, type Overlay } from './overlay';
import { accessCookieUrl, returnUrls, widgetOrigin, widgetParameters, widgetUrl, type PaymentIds, type WidgetParameters } from './params';
import { CLIENT_VERSION, isQuestion, isSafeLink, parseWidgetMessage } from './protocol';

/** The little of `window` the widget needs; injected so that tests drive it with a fake window. */
export interface WidgetWindow {
  document: Document;
  location: { href: string; origin: string; assign(url: string): void };
  open(url: string, target: string, features: string): WindowProxy | null;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  crypto: { getRandomValues<T extends ArrayBufferView>(array: T): T };
}

/** What the widget session reports to its owner (the bankWidget machine's events). */
export type WidgetReport =
  | { type: 'widget.ready' }
  | { type: 'widget.success' }
  | { type: 'widget.fail' }
  | { type: 'widget.closed' }
  | { type: 'widget.error'; error: unknown };

export interface WidgetRequest extends PaymentIds {
  /** Payment type code: SberPaySite or SberPaySiteP (they use different host families). */
  code: string;
  isSafariDesktop: boolean;
}

/** The helper popup is 450x500 at offset 200,200. */
export const HELPER_TAB_FEATURES = 'width=450,height=500,left=200,top=200';
export const HELPER_TAB_NAME = 'bank-widget-access-cookie';

/**
 * The bank-app pay widget client (SberPaySite, SberPaySiteP) for one page: desktop iframe overlay, desktop
 * Safari helper tab, mobile full-page redirect, and the message protocol.
 */
export function createBankWidget(win: WidgetWindow, environment: WidgetEnvironment) {
  const hostOf = (code: string) => widgetHost(environment, familyOf(code));
  const paramsOf = (request: WidgetRequest): WidgetParameters => widgetParameters(win.location, request, request.isSafariDesktop);
  let helperTab: WindowProxy | null = null;

  return {
    /** The return URL on our pay site for an outcome (ends /success, with state and bankInvoiceId). */
    returnUrl(ids: PaymentIds, outcome: 'success' | 'fail'): string {
      const urls = returnUrls(win.location.origin, ids);
      return outcome === 'success' ? urls.successUrl : urls.failUrl;
    },

    /** Mobile: the whole page goes to the widget with the base64 parameter bundle. */
    redirect(request: WidgetRequest): void {
      win.location.assign(widgetUrl(hostOf(request.code), win.location.origin, 'mobile', paramsOf(request)));
    },

    /** Desktop Safari: a small tab on the widget's host, so the bank's cookies count as first-party there. */
    openHelperTab(code: string): void {
      helperTab = win.open(accessCookieUrl(hostOf(code), win.location.origin), HELPER_TAB_NAME, HELPER_TAB_FEATURES);
    },

    /**
     * Desktop: opens the iframe overlay and speaks the protocol until closed. Messages count only from the
     * widget's exact origin and from its own window (the frame, or the Safari helper tab); answers go back to
     * that exact origin, never '*'. Returns the cleanup that removes the overlay and restores scrolling.
     */
    open(request: WidgetRequest, report: (event: WidgetReport) => void): () => void {
      const host = hostOf(request.code);
      const origin = widgetOrigin(host, win.location.origin);
      const params = paramsOf(request);
      let overlay: Overlay | null = null;
      let ready = false;

      const answer = (type: string): unknown => {
        if (type === 'GET_VERSION') return CLIENT_VERSION;
        if (type === 'GET_PARAMETERS') return params;
        return params.orderId;
      };

      const onMessage = (event: MessageEvent) => {
        if (event.origin !== origin) return;
        const source = event.source as WindowProxy | null;
        if (!source || (source !== overlay?.frame.contentWindow && source !== helperTab)) return;
        const message = parseWidgetMessage(event.data);
        if (!message) return;
        try {
          if (!ready) {
            ready = true;
            report({ type: 'widget.ready' });
          }
          if (isQuestion(message)) {
            source.postMessage({ type: message.type, payload: answer(message.type) }, origin);
            return;
          }
          switch (message.type) {
            case 'success':
              report({ type: 'widget.success' });
              break;
            case 'fail':
              report({ type: 'widget.fail' });
              break;
            case 'CLOSE_WIDGET':
              report({ type: 'widget.closed' });
              break;
            case 'OPEN_LINK':
              if (isSafeLink(message.payload.link, win.location.href)) win.location.assign(message.payload.link);
              break;
            default:
              // The widget's answers to questions we never ask: nothing to do.
              break;
          }
        } catch (error) {
          report({ type: 'widget.error', error });
        }
      };

      win.addEventListener('message', onMessage);
      try {
        // The payer closing the overlay (its button, Esc) is the widget's CLOSE_WIDGET: back to choosing.
        overlay = openOverlay(win.document, win.crypto, widgetUrl(host, win.location.origin, 'desktop', params), () => report({ type: 'widget.closed' }));
      } catch (error) {
        report({ type: 'widget.error', error });
      }
      return () => {
        win.removeEventListener('message', onMessage);
        overlay?.close();
      };
    },
  };
}

export type BankWidgetClient = ReturnType<typeof createBankWidget>;
